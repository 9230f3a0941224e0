import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ResultSetHeader } from 'mysql2/promise';
import {
  move,
  ORDER_LIFECYCLE,
  REFUND_LIFECYCLE,
  TICKET_LIFECYCLE,
  TransitionError,
  tryMove,
} from '../src/lifecycle/transitions';
import { REFUND_STATUS } from '../src/refunds/repo';
import { withTestEnv } from './helpers/env';

/** One home for the lifecycle: the transition tables, conditional moves, statuses named once. */
const SRC = path.resolve(__dirname, '../src');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });

it('no SQL names a status by its number (status = 3, status IN (1, 2, 3))', () => {
  const bare: string[] = [];
  for (const f of files(SRC))
    readFileSync(f, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/\b(WHERE|AND|OR|SET)\b/.test(line) && /status\s*(=|<>|!=|IN\s*\()\s*\d/.test(line))
          bare.push(`${path.relative(SRC, f)}:${i + 1}: ${line.trim()}`);
      });
  expect(bare).toEqual([]);
});

it('every transition leaves its from-states', () => {
  for (const table of [ORDER_LIFECYCLE, REFUND_LIFECYCLE, TICKET_LIFECYCLE])
    for (const t of Object.values(table)) expect(t.from as readonly number[]).not.toContain(t.to);
});

describe('conditional moves', () => {
  it('moves a row once; move() asserts, tryMove() answers false when another instance moved it first', () =>
    withTestEnv(async (env) => {
      const [res] = await env.deps.db.query<ResultSetHeader>(
        `INSERT INTO refunds (order_id, payment_id, kind, out_refund_no, amount_fen, requested_by, created_at)
       VALUES (1, 1, 'order', 'RF-lifecycle', 100, 'test', NOW(3))`,
      );
      const id = String(res.insertId);
      expect(await tryMove(env.deps.db, 'refunds', id, REFUND_LIFECYCLE.accept, { refund_id: 'wx1' })).toBe(
        true,
      );
      expect(await tryMove(env.deps.db, 'refunds', id, REFUND_LIFECYCLE.accept)).toBe(false);
      await expect(move(env.deps.db, 'refunds', id, REFUND_LIFECYCLE.accept)).rejects.toThrow(
        TransitionError,
      );
      await move(env.deps.db, 'refunds', id, REFUND_LIFECYCLE.succeed, { finished_at: new Date() });
      await expect(move(env.deps.db, 'refunds', id, REFUND_LIFECYCLE.close)).rejects.toThrow(TransitionError);
      const [[row]] = await env.deps.db.query<any[]>('SELECT status, refund_id FROM refunds WHERE id = ?', [
        id,
      ]);
      expect(row).toEqual({ status: REFUND_STATUS.SUCCESS, refund_id: 'wx1' });
    }));
});
