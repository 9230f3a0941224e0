import type { WaitlistEntry } from '@showtix/shared-types';
import { audit } from './helpers/auditor';
import { createSession } from './helpers/fixtures';
import { GateBench } from './helpers/gate';
import { FREE_REFUNDS } from './helpers/pay-env';

/**
 * The waiting list end to end with WeChat Pay (the simulator): a ticket refunded by its holder
 * frees its seat (the refund's inventory.release message), the seat is offered to the waiting
 * fan at once, who pays the offer like any order (one tap) and gets the ticket.
 */
const g = new GateBench();
beforeAll(() => g.start());
afterAll(() => g.close());

it('a refunded seat is offered to the waiting fan, who pays it and gets the ticket', async () => {
  const s = await createSession(g.p.deps, {
    seats: 1,
    refundRules: FREE_REFUNDS,
  });
  const [held] = await g.tickets(s, 1);
  const fan = await g.p.login('openid-waitlist-pay');
  const joined = await g.p.api.call('POST', `/api/v1/sessions/${s.sessionId}/waitlist`, {
    token: fan.token,
    body: { tierId: s.tierIds[0], quantity: 1 },
  });
  expect(joined.status).toBe(201);

  const refund = await g.p.api.call('POST', `/api/v1/orders/${held!.orderNo}/refund`, {
    token: held!.token,
    body: {},
  });
  expect(refund.status).toBe(200);
  const offer = await g.p.until(
    async () => {
      const r = await g.p.api.call<{ items: WaitlistEntry[] }>('GET', '/api/v1/me/waitlist', {
        token: fan.token,
      });
      const e = r.body.items[0]!;
      return e.state === 'offered' && e;
    },
    'the offer after the refund',
    20_000,
  );

  const pay = await g.p.api.call('POST', `/api/v1/orders/${offer.orderNo}/pay`, { token: fan.token });
  expect(pay.status).toBe(200);
  g.p.sim.pay(pay.body.payParams);
  const tickets = await g.p.until(async () => {
    const r = await g.p.api.call('GET', '/api/v1/tickets', { token: fan.token });
    const mine = r.body.items.filter((t: { orderNo: string }) => t.orderNo === offer.orderNo);
    return mine.length === 1 && mine;
  }, 'the ticket of the offer');
  expect(tickets[0].status).toBe('valid');
  await g.p.deps.waitlist.sweep(g.p.clock.now());
  const after = await g.p.api.call<{ items: WaitlistEntry[] }>('GET', '/api/v1/me/waitlist', {
    token: fan.token,
  });
  expect(after.body.items[0]!.state).toBe('fulfilled');
  expect(await audit(g.p.deps, s.sessionId, g.p.clock.now().getTime())).toEqual([]);
});
