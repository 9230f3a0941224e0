// Ticket transfers (转赠) in the chaos run (issue 16): a ticketed buyer offers one ticket and
// another simulated fan accepts it, while the giver takes the offer back, a second receiver races
// the first, the giver asks for the transferred ticket's money and the old code is shown at the
// gate. The audit (audit.mjs) trusts none of the answers below: they are only tallied.
import { call, gateScan, loginAs, phoneCode, tally, tallyScan } from './calls.mjs';

const admitted = (s) => s.body?.result === 'admitted';

/**
 * One giver's transfer. `o`: {token, orderNo, path, session, i, r (the buyer's second stream),
 * stats}. Receivers are fans of their own (`chaos-<seed>-<i>-rx`) who never buy anything.
 */
export async function transferTicket(w, o) {
  const { url } = w;
  const { token, orderNo, path, i, r, stats } = o;
  const list = await call(url, 'GET', '/api/v1/tickets', { token });
  const mine = (list.body?.items ?? []).filter((t) => t.orderNo === orderNo && t.status === 'valid');
  if (!mine.length) return;
  const ticket = mine[Math.floor(r() * mine.length)];
  // Half the givers had opened the ticket on their phone: that code must die with the transfer.
  const oldCode = r() < 0.5 ? await phoneCode(url, token, ticket.ticketId) : '';
  const tpath = `/api/v1/tickets/${ticket.ticketId}/transfer`;
  const offer = await call(url, 'POST', tpath, { token });
  tally(stats, 'transfer-offer', offer);
  if (offer.status !== 200 || !offer.body?.code) return;
  stats.transferOffers++;
  const accept = (tk) =>
    call(url, 'POST', `/api/v1/transfers/${offer.body.code}/accept`, { token: tk, body: {} });
  const roll = r();
  if (roll < 0.15) {
    // The offer stays open (nobody answers): the giver wants the money instead, and is refused.
    const refund = { reason: 'chaos: offered', ticketIds: [ticket.ticketId] };
    tally(stats, 'refund-transferring', await call(url, 'POST', `${path}/refund`, { token, body: refund }));
    return;
  }
  const rx = await loginAs(w, `chaos-${w.seed}-${i}-rx`);
  if (roll < 0.3) {
    // The giver takes the offer back as the receiver accepts it: exactly one of the two wins.
    const [back, acc] = await Promise.all([call(url, 'DELETE', tpath, { token }), accept(rx)]);
    tally(stats, 'transfer-cancel', back);
    tally(stats, 'transfer-accept', acc);
    if (acc.status === 200) stats.transfers++;
    return;
  }
  tally(
    stats,
    'transfer-view',
    await call(url, 'GET', `/api/v1/transfers/${offer.body.code}`, { token: rx }),
  );
  // Sometimes a second fan got the link too: of receivers racing, exactly one wins.
  const racers = roll < 0.5 ? [rx, await loginAs(w, `chaos-${w.seed}-${i}-rx2`)] : [rx];
  const answers = await Promise.all(racers.map(accept));
  for (const a of answers) tally(stats, 'transfer-accept', a);
  const won = answers.findIndex((a) => a.status === 200);
  if (won < 0) return;
  stats.transfers += answers.filter((a) => a.status === 200).length;
  // The winner asks again (a retry after a lost answer): the same ticket, nothing more.
  tally(stats, 'transfer-accept-again', await accept(racers[won]));
  await afterTransfer(w, { ...o, ticket, oldCode, rx: racers[won], newTicketId: answers[won].body.ticketId });
}

/** What follows a transfer: the giver's refund and old code are refused, the receiver gets in. */
async function afterTransfer(w, o) {
  const { url } = w;
  const { token, path, session, i, r, stats, ticket, oldCode, rx, newTicketId } = o;
  const refund = { reason: 'chaos: given away', ticketIds: [ticket.ticketId] };
  tally(stats, 'refund-transferred', await call(url, 'POST', `${path}/refund`, { token, body: refund }));
  if (oldCode) tallyScan(stats, 'checkin-transferred', await gateScan(w, i, session.id, oldCode));
  if (!newTicketId || r() < 0.4) return;
  const qr = await phoneCode(url, rx, newTicketId);
  if (!qr) return;
  const s = await gateScan(w, i, session.id, qr);
  tallyScan(stats, 'checkin-received', s);
  if (admitted(s)) stats.checkins++;
}
