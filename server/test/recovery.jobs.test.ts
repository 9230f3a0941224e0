import type { RowDataPacket } from 'mysql2/promise';
import { Registry } from 'prom-client';
import type { AppDeps } from '../src/wiring';
import { loadConfig } from '../src/config';
import { purgeAdmissionUses, PURGE_AFTER_EXPIRY_MS } from '../src/jobs/admission-purge';
import { recoveryJobs } from '../src/jobs/recovery';
import { withTestEnv } from './helpers/env';
import { refusesToStartWith } from './helpers/config';

/** The recovery jobs' periods come from validated configuration; expired admission uses are purged. */
describe('recovery job periods', () => {
  const periods = (env: Record<string, string>) => {
    const config = loadConfig({ NODE_ENV: 'test', ...env });
    const metrics = { registry: new Registry(), leaderOnly: () => () => undefined };
    const deps = { config, metrics } as unknown as AppDeps;
    return Object.fromEntries(recoveryJobs(deps, () => []).map((j) => [j.name, j.intervalMs]));
  };

  it('defaults', () => {
    expect(periods({})).toEqual({
      'dead-letter-redrive': 30_000,
      'paid-without-tickets': 30_000,
      'refund-resend': 30_000,
      'refunded-seats': 60_000,
      'admission-purge': 3_600_000,
    });
    expect(loadConfig({ NODE_ENV: 'test' }).recovery.auditIntervalMs).toBe(60_000);
  });

  it('are read from the environment', () => {
    expect(
      periods({
        RECOVERY_REDRIVE_INTERVAL_MS: '1000',
        RECOVERY_SWEEP_INTERVAL_MS: '2000',
        RECOVERY_SEATS_INTERVAL_MS: '3000',
        RECOVERY_PURGE_INTERVAL_MS: '4000',
      }),
    ).toEqual({
      'dead-letter-redrive': 1000,
      'paid-without-tickets': 2000,
      'refund-resend': 2000,
      'refunded-seats': 3000,
      'admission-purge': 4000,
    });
  });

  refusesToStartWith([
    ['RECOVERY_SWEEP_INTERVAL_MS', '0'],
    ['RECOVERY_REDRIVE_INTERVAL_MS', 'soon'],
    ['RECOVERY_AUDIT_INTERVAL_MS', '99'],
    ['RECOVERY_PURGE_INTERVAL_MS', '86400001'],
  ]);
});

describe('admission-use purge', () => {
  it('deletes rows of tokens expired over an hour ago, in batches, and keeps the rest', () =>
    withTestEnv(async (t) => {
      const now = t.clock.now();
      const at = (ms: number) => new Date(now.getTime() + ms);
      const rows: unknown[][] = [];
      for (let i = 0; i < 25; i++) rows.push([`old${i}`, 1, 100 + i, at(-PURGE_AFTER_EXPIRY_MS - 1000 - i)]);
      rows.push(['recent-expired', 1, 200, at(-60_000)]); // expired a minute ago: kept for now
      rows.push(['live', 1, 201, at(600_000)]);
      await t.deps.db.query('INSERT INTO admission_uses (jti, session_id, order_id, expires_at) VALUES ?', [
        rows,
      ]);
      const left = async () =>
        (await t.deps.db.query<RowDataPacket[]>('SELECT jti FROM admission_uses ORDER BY jti'))[0].map(
          (r) => r.jti,
        );
      // Bounded per run: 2 batches of 10.
      expect(await purgeAdmissionUses(t.deps, now, { batch: 10, batchesMax: 2 })).toBe(20);
      expect(await left()).toHaveLength(7);
      expect(await purgeAdmissionUses(t.deps, now, { batch: 10, batchesMax: 2 })).toBe(5);
      expect(await left()).toEqual(['live', 'recent-expired']);
      expect(await purgeAdmissionUses(t.deps, now)).toBe(0);
      expect(await purgeAdmissionUses(t.deps, at(PURGE_AFTER_EXPIRY_MS))).toBe(1);
      expect(await left()).toEqual(['live']);
    }));
});
