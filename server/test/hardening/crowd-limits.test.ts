import { createPayEnv, type PayEnv } from '../helpers/pay-env';

/**
 * Issue 12.8: one carrier-grade NAT address carries thousands of honest phones. The per-address
 * limits only stop floods; the per-WeChat-identity, per-device and per-account limits do the work.
 * Default limits here (no RATE_* overrides).
 */
let p: PayEnv;
beforeAll(async () => {
  p = await createPayEnv();
});
afterAll(async () => {
  await p.close();
});

it('120 different fans behind one address all log in within a minute', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 120; i += 20)
    statuses.push(
      ...(await Promise.all(
        Array.from({ length: 20 }, async (_, k) => {
          const { code } = p.sim.login(`nat-fan-${i + k}`);
          return (await p.api.call('POST', '/api/v1/auth/wx-login', { body: { code } })).status;
        }),
      )),
    );
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
});

it('one WeChat identity logging in over and over is limited, from any address', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) {
    const { code } = p.sim.login('busy-identity');
    const r = await p.api.call('POST', '/api/v1/auth/wx-login', {
      body: { code },
      headers: { 'x-device-id': `device-${i}-abcdefgh` },
    });
    statuses.push(r.status);
  }
  expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
  expect(statuses.slice(10)).toEqual([429, 429]);
});
