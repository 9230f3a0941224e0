import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RowDataPacket } from 'mysql2/promise';
import { makeCode, manualKeyOf } from '@showtix/shared-types/dist/ticket-code';
import { createTestEnv, type TestEnv } from '../helpers/env';
import { newDevice } from '../helpers/gate';
import { startTestServer, type ApiResponse, type TestServer } from '../helpers/http';

export const ADMIN_PASSWORD = 'correct-horse-battery';
/** The environment that makes `root` / ADMIN_PASSWORD the first organiser account. */
export const ADMIN_ENV = { ADMIN_USERNAME: 'root', ADMIN_PASSWORD };

/** Logs an organiser in through POST /api/v1/admin/login and answers the token. */
export async function loginAdmin(
  api: TestServer,
  username = 'root',
  password = ADMIN_PASSWORD,
): Promise<string> {
  const r = await api.call('POST', '/api/v1/admin/login', { body: { username, password } });
  if (r.status !== 200) throw new Error(`login failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.token as string;
}

export interface AdminHarness {
  env: TestEnv;
  api: TestServer;
  /** A token of the bootstrap admin (role admin). */
  root: string;
  login(username?: string, password?: string): Promise<string>;
  /** Creates an account with these roles and logs it in. */
  tokenWithRoles(roles: ('admin' | 'operator' | 'staff_manager')[]): Promise<string>;
  as(token: string): <T = any>(method: string, path: string, body?: unknown) => Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

let accounts = 0;

/**
 * A suite's harness with an operator's calls, started before its tests and closed after
 * (read `.h`, `.op`, `.q` inside tests).
 */
export function operatorSuite() {
  const t = {} as {
    h: AdminHarness;
    op: ReturnType<AdminHarness['as']>;
    q: (sql: string, args?: unknown[]) => Promise<RowDataPacket[]>;
  };
  beforeAll(async () => {
    t.h = await adminHarness();
    t.op = t.h.as(await t.h.tokenWithRoles(['operator']));
    t.q = async (sql, args = []) => (await t.h.env.deps.db.query<RowDataPacket[]>(sql, args))[0];
  });
  afterAll(() => t.h.close());
  return t;
}

export async function adminHarness(overrides: Record<string, string> = {}): Promise<AdminHarness> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'showtix-admin-test-'));
  const env = await createTestEnv({ ...ADMIN_ENV, DATA_DIR: dataDir, ...overrides });
  const api = await startTestServer(env);
  const login = (username?: string, password?: string) => loginAdmin(api, username, password);
  const root = await login();
  const as = (token: string) => (method: string, path: string, body?: unknown) =>
    api.call(method, path, { token, body });
  return {
    env,
    api,
    root,
    login,
    as,
    async tokenWithRoles(roles) {
      const username = `user${++accounts}_${roles.join('_')}`;
      const r = await as(await login())('POST', '/api/v1/admin/admins', {
        username,
        password: ADMIN_PASSWORD,
        roles,
      });
      if (r.status !== 201) throw new Error(`create failed: ${JSON.stringify(r.body)}`);
      return login(username);
    },
    async close() {
      await api.close();
      await env.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function auditRows(h: AdminHarness, action: string): Promise<RowDataPacket[]> {
  const [rows] = await h.env.deps.db.query<RowDataPacket[]>(
    'SELECT * FROM admin_audit_log WHERE action = ? ORDER BY id',
    [action],
  );
  return rows;
}

/** A generated venue: `blocks` of rows x seats. */
export function blocks(...specs: [section: string, rows: number, seats: number][]) {
  return specs.map(([section, rows, seatsPerRow], i) => ({
    section,
    rows,
    seatsPerRow,
    originX: i * 400,
    originY: 0,
  }));
}

/** The fan claims each comp by its claim code; answers the fan's ticket id per order number. */
export async function claimComps(
  h: AdminHarness,
  token: string,
  comps: ApiResponse[],
): Promise<Map<string, string>> {
  for (const c of comps)
    await h.api.call('POST', '/api/v1/comps/claim', { token, body: { code: c.body.claimCode } });
  const wallet = await h.api.call<{ items: { ticketId: string; orderNo: string }[] }>(
    'GET',
    '/api/v1/tickets',
    {
      token,
    },
  );
  return new Map(wallet.body.items.map((w) => [w.orderNo, w.ticketId]));
}

/**
 * Binds the fan's ticket to a new phone; returns the gate scan of what that phone then shows
 * (staffToken: a staff member of the session's show).
 */
export async function boundTicket(
  h: AdminHarness,
  token: string,
  staffToken: string,
  ticketId: string,
  sessionId: string,
): Promise<() => Promise<ApiResponse>> {
  const device = newDevice();
  const b = await h.api.call('POST', `/api/v1/tickets/${ticketId}/bind`, {
    token,
    body: { publicKey: device.pub, manualKey: manualKeyOf(device.priv, ticketId) },
  });
  if (b.status !== 200) throw new Error(`bind failed: ${JSON.stringify(b.body)}`);
  return () => {
    const qr = makeCode(b.body.binding, device.priv, h.env.clock.now().getTime());
    return h.api.call('POST', '/api/v1/checkin', { token: staffToken, body: { qr, gate: 'A1', sessionId } });
  };
}
