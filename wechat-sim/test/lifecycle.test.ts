import { startSimulator } from '../src';
import { jsapiBody, requestPayment, startReceiver, wxRequest } from './helpers';

describe('lifecycle', () => {
  it('close() cancels pending retries and refunds, and stops listening', async () => {
    const receiver = await startReceiver(() => 500);
    const sim = await startSimulator({ notifyRetryScale: 1, refundDelayMs: 60_000 });
    try {
      const body = jsapiBody(receiver.url);
      const { json } = await wxRequest(sim.url, 'POST', '/v3/pay/transactions/jsapi', body);
      sim.pay(requestPayment(json.prepay_id));
      await sim.waitFor(() => sim.notifications()[0]?.attempts.length === 1);
      await wxRequest(sim.url, 'POST', '/v3/refund/domestic/refunds', {
        out_trade_no: body.out_trade_no,
        out_refund_no: 'R-lifecycle-1',
        amount: { refund: 1, total: 1234, currency: 'CNY' },
      });
      expect(sim.pendingTimers()).toBe(2); // the 15 s retry and the 60 s refund completion
    } finally {
      await sim.close();
      await receiver.close();
    }
    // Nothing is left scheduled (jest --detectOpenHandles confirms no handle survives).
    expect(sim.pendingTimers()).toBe(0);
    await expect(fetch(`${sim.url}/sim/health`)).rejects.toThrow();
    await sim.close(); // idempotent
  });

  it('serves GET /sim/state and the fault switches over HTTP', async () => {
    const sim = await startSimulator();
    try {
      const set = await fetch(`${sim.url}/sim/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ duplicate: 2, wrongAmount: true, refundOutcome: 'CLOSED' }),
      }).then((r) => r.json() as Promise<any>);
      expect(set).toMatchObject({ duplicate: 2, wrongAmount: 1, refundOutcome: 'CLOSED' });
      const bad = await fetch(`${sim.url}/sim/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ nonsense: 1 }),
      });
      expect(bad.status).toBe(400);
      expect(() => sim.setFaults({ refundOutcome: 'MAYBE' as never })).toThrow();
      const reset = await fetch(`${sim.url}/sim/faults`, { method: 'DELETE' }).then(
        (r) => r.json() as Promise<any>,
      );
      expect(reset).toMatchObject({ duplicate: 1, wrongAmount: 0, refundOutcome: 'SUCCESS' });
      const state = await fetch(`${sim.url}/sim/state`).then((r) => r.json() as Promise<any>);
      expect(Object.keys(state).sort()).toEqual([
        'consents',
        'faults',
        'messages',
        'notifications',
        'orders',
        'refunds',
      ]);
    } finally {
      await sim.close();
    }
  });

  it('refuses to start with keys whose certificate and config disagree', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { testKeys } = await import('../src');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wechat-sim-keys-'));
    try {
      fs.cpSync(testKeys.dir, dir, { recursive: true });
      const config = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'));
      fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ ...config, merchantSerial: '1234' }));
      await expect(startSimulator({ keysDir: dir })).rejects.toThrow(/serial/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
