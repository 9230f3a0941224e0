import type { RowDataPacket } from 'mysql2/promise';
import { startSimulator, type Simulator, type SimulatorOptions } from '@showtix/wechat-sim';
import type { PayParams, PayResponse } from '@showtix/shared-types';
import { startConsumers } from '../../src/workers';
import { createTestEnv, step, type TestEnv } from './env';
import { createSession, type SessionFixture } from './fixtures';
import { reservedServer, startTestServer, type TestServer } from './http';
import { until } from './until';

export interface PayEnv extends TestEnv {
  api: TestServer;
  sim: Simulator;
  /** A fan logged in through the simulator's wx.login, as the mini-program does. */
  login(openid?: string): Promise<{ token: string; userId: string }>;
  /**
   * A fan's order (the body POST /api/v1/orders takes) with its WeChat payment started, as the
   * mini-program does before wx.requestPayment; the simulator has not been paid yet.
   */
  orderAndPrepay(
    openid: string,
    body: Record<string, unknown>,
  ): Promise<{
    fan: { token: string; userId: string };
    order: any;
    orderNo: string;
    prepayId: string;
    /** What the mini-program passes to wx.requestPayment (sim.pay checks them as WeChat does). */
    payParams: PayParams;
  }>;
  /** Waits until fn answers truthy (notifications, consumers and refunds run asynchronously). */
  until<T>(fn: () => Promise<T | undefined | false>, what: string, ms?: number): Promise<T>;
}

/** A port free now, for a child process told to listen on it (scripts/lib/free-port.js says how). */
export { freePort } from '../../../scripts/lib/free-port';

/**
 * The server with WeChat pointed at a real simulator (real HTTP, real signatures, encrypted
 * notifications with a compressed retry schedule) and its RabbitMQ consumers running.
 */
export interface PayEnvOptions {
  sim?: SimulatorOptions;
  env?: Record<string, string>;
  consumers?: boolean;
  mysqlVia?: string;
}

/**
 * The environment, and its API on a port held from before the configuration names it (the
 * notify URL), not found free and listened on after the set-up: another socket could take it
 * meanwhile. What was started is closed if a step fails.
 */
async function envAndApi(sim: Simulator, o: PayEnvOptions): Promise<{ env: TestEnv; api: TestServer }> {
  const { server, port } = await reservedServer();
  let env: TestEnv | undefined;
  try {
    env = await createTestEnv(
      {
        PORT: String(port),
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        WECHAT_API_BASE: sim.url,
        WECHAT_PAY_API_BASE: sim.url,
        WECHAT_CASHIER_URL: `${sim.url}/sim/cashier`,
        CONSUMER_BACKOFF_MS: '50',
        ...o.env,
      },
      { mysqlVia: o.mysqlVia },
    );
    return { env, api: await step('the API server', startTestServer(env, server)) };
  } catch (err) {
    await new Promise((r) => server.close(r));
    await env?.close();
    throw err;
  }
}

export async function createPayEnv(o: PayEnvOptions = {}): Promise<PayEnv> {
  const sim = await step(
    'the WeChat simulator',
    startSimulator({ notifyRetryScale: 0.0005, refundDelayMs: 30, ...o.sim }),
  );
  const { env, api } = await envAndApi(sim, o).catch(async (err: unknown) => {
    await sim.close();
    throw err;
  });
  if (o.consumers !== false) startConsumers(env.deps);
  const login: PayEnv['login'] = async (openid) => {
    const { code } = sim.login(openid);
    const r = await api.call('POST', '/api/v1/auth/wx-login', { body: { code } });
    if (r.status !== 200) throw new Error(`login failed: ${r.status} ${JSON.stringify(r.body)}`);
    return { token: r.body.token, userId: r.body.user.id };
  };
  return {
    ...env,
    api,
    sim,
    login,
    async orderAndPrepay(openid, body) {
      const fan = await login(openid);
      const order = await api.call('POST', '/api/v1/orders', { token: fan.token, body });
      if (order.status !== 201)
        throw new Error(`order failed: ${order.status} ${JSON.stringify(order.body)}`);
      const orderNo = order.body.orderNo as string;
      const pay = await api.call('POST', `/api/v1/orders/${orderNo}/pay`, { token: fan.token });
      if (pay.status !== 200) throw new Error(`prepay failed: ${pay.status} ${JSON.stringify(pay.body)}`);
      const { prepayId, payParams } = pay.body as PayResponse;
      return { fan, order: order.body, orderNo, prepayId, payParams };
    },
    until,
    async close() {
      await api.close();
      await env.close();
      await sim.close();
    },
  };
}

/**
 * `n` fans (openid-<tag>-<i>) who each order seat i of `s` and start its payment, one after
 * another; the simulator has paid none of them yet.
 */
export async function prepaidOrders(p: PayEnv, s: SessionFixture, n: number, tag: string) {
  const orders = [];
  for (let i = 0; i < n; i++)
    orders.push(
      await p.orderAndPrepay(`openid-${tag}-${i}`, { sessionId: s.sessionId, seatIds: [s.seatIds[i]] }),
    );
  return orders;
}

/**
 * A fan's order of these seats, paid through the simulator (the notification applied): when
 * consumers are off, its tickets are not issued yet. Its order id as MySQL has it.
 */
export async function paidOrder(p: PayEnv, openid: string, body: { sessionId: string; seatIds: string[] }) {
  const { fan, orderNo, payParams } = await p.orderAndPrepay(openid, body);
  p.sim.pay(payParams);
  const get = () => p.api.call('GET', `/api/v1/orders/${orderNo}`, { token: fan.token });
  await p.until(async () => (await get()).body.status === 'paid', 'paid');
  const [[row]] = await p.deps.db.query<RowDataPacket[]>('SELECT id FROM orders WHERE order_no = ?', [
    orderNo,
  ]);
  return { fan, orderNo, orderId: String(row!.id) };
}

/** Refunds free of charge until the session starts: for tests where the refund fee is not the point. */
export const FREE_REFUNDS = [{ hoursBeforeStart: 0, feePercent: 0 }];

/** A PayEnv with one session on sale (`seats` seats, free refunds): the start most payment tests share. */
export async function payEnvWithSession(
  seats: number,
  o: PayEnvOptions = {},
): Promise<{ p: PayEnv; s: SessionFixture }> {
  const p = await createPayEnv(o);
  const s = await createSession(p.deps, { seats, refundRules: FREE_REFUNDS });
  return { p, s };
}
