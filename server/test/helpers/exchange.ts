import type { PayEnv } from './pay-env';

/** A fan's ticketed order of one session, as the exchange tests start from. */
export interface TicketedOrder {
  fan: { token: string; userId: string };
  orderNo: string;
  ticketIds: string[];
}

/** Buys the seats as a new fan, pays through the simulator, waits for the tickets. */
export async function ticketedOrder(
  p: PayEnv,
  openid: string,
  sessionId: string,
  seatIds: string[],
): Promise<TicketedOrder> {
  const { fan, orderNo, payParams } = await p.orderAndPrepay(openid, { sessionId, seatIds });
  p.sim.pay(payParams);
  const mine = await p.until(async () => {
    const r = await p.api.call('GET', '/api/v1/tickets', { token: fan.token });
    const items = r.body.items.filter((x: { orderNo: string }) => x.orderNo === orderNo);
    return items.length === seatIds.length && items;
  }, 'tickets');
  return { fan, orderNo, ticketIds: mine.map((t: { ticketId: string }) => t.ticketId) };
}

/** The fan asks to exchange (改签) one ticket of the order for another seat of the session. */
export function exchangeTicket(
  p: PayEnv,
  o: TicketedOrder,
  ticketId: string,
  sessionId: string,
  seatId: string,
) {
  return p.api.call('POST', `/api/v1/orders/${o.orderNo}/exchange`, {
    token: o.fan.token,
    body: { ticketIds: [ticketId], sessionId, seatIds: [seatId] },
  });
}

/** Pays an upward exchange's difference and waits until the exchange is done. */
export async function payExchange(p: PayEnv, o: TicketedOrder, exchangeOrderNo: string): Promise<void> {
  const pay = await p.api.call('POST', `/api/v1/orders/${exchangeOrderNo}/pay`, { token: o.fan.token });
  if (pay.status !== 200) throw new Error(`prepay failed: ${pay.status} ${JSON.stringify(pay.body)}`);
  p.sim.pay(pay.body.payParams);
  await p.until(async () => {
    const l = await p.api.call('GET', `/api/v1/orders/${o.orderNo}/exchanges`, { token: o.fan.token });
    return l.body.items.some(
      (x: { orderNo: string; status: string }) => x.orderNo === exchangeOrderNo && x.status === 'done',
    );
  }, 'the exchange done');
}
