import { fireEvent, render, screen } from '@testing-library/react';
import { loggedInFan, tick } from './fan';
import { ok, refuse, serveApi } from './fake-api';
import { ID_B, offeredForTransfer, SAVED, walletTicket } from './fixtures';
import TicketsPage from '../../src/pages/tickets/index';
import TransferPage from '../../src/pages/transfer/index';
import taro, { router, share } from './stubs/taro';

// The server's signature by node:crypto (test/support/tickets.js): a ticket bound to another phone.
const support = require('../support/tickets');

const CODE = 'c'.repeat(43);
const keys = support.keyPair();
const signed = support.ticket(keys, 'TABCDEFGHJKLMNPQRSTU', '7', support.device());
const ticket = walletTicket(signed.ticketNo, {
  qr: signed.binding.binding,
  binding: signed.binding,
  transferable: true,
});
const offered = offeredForTransfer(ticket, CODE);

loggedInFan(new Date('2027-01-10T10:00:00.000Z').getTime());

it('wallet: 转赠 offers the ticket, then shares the card with the code, and cancels the offer', async () => {
  const sent = serveApi({
    'GET /api/v1/tickets': [ok({ items: [ticket] }), ok({ items: [offered] }), ok({ items: [ticket] })],
    [`POST /api/v1/tickets/${ticket.ticketId}/transfer`]: ok({
      transferId: '1',
      ticketId: ticket.ticketId,
      state: 'open',
      code: CODE,
      expiresAt: offered.transferOffer.expiresAt,
    }),
    [`DELETE /api/v1/tickets/${ticket.ticketId}/transfer`]: ok({
      ticketId: ticket.ticketId,
      cancelled: true,
    }),
  });
  render(<TicketsPage />);
  await tick();
  fireEvent.click(screen.getByTestId('transfer-btn'));
  await tick();
  expect(taro.showModal).toHaveBeenCalledWith(
    expect.objectContaining({ content: expect.stringContaining('不支持退票') }),
  );
  expect(sent.map((s) => s.key)).toContain(`POST /api/v1/tickets/${ticket.ticketId}/transfer`);
  expect(screen.getByTestId('ticket').dataset.status).toBe('transferring');
  expect(screen.getByTestId('ticket-stamp').textContent).toBe('转赠中');
  expect(screen.getByTestId('transfer-offer')).toBeTruthy();
  // The share card a share button of this offer makes: the friend opens the accept page.
  const card = (share.handler as unknown as (r: object) => { title: string; path: string })({
    from: 'button',
    target: { dataset: { code: CODE, title: ticket.showTitle } },
  });
  expect(card).toEqual({
    title: '送你一张《星河巡回演唱会》的门票',
    path: `/pages/transfer/index?code=${CODE}`,
  });

  fireEvent.click(screen.getByTestId('transfer-cancel'));
  await tick();
  expect(sent.map((s) => s.key)).toContain(`DELETE /api/v1/tickets/${ticket.ticketId}/transfer`);
  expect(screen.getByTestId('ticket').dataset.status).toBe('valid');
});

it('accept page: a real-name ticket is re-bound to a chosen attendee; an ID already holding one is said in words', async () => {
  router.params = { code: CODE };
  const accepts: unknown[] = [];
  serveApi({
    [`GET /api/v1/transfers/${CODE}`]: ok({
      state: 'open',
      showTitle: '星河巡回演唱会',
      venueName: '梅奔',
      startsAt: '2027-01-15T11:30:00.000Z',
      seat: { section: 'A区', row: '1', number: '1' },
      priceFen: 68_000,
      realName: true,
      expiresAt: '2027-01-15T09:30:00.000Z',
      mine: false,
    }),
    'GET /api/v1/me/attendees': ok({ items: SAVED }),
    [`POST /api/v1/transfers/${CODE}/accept`]: ({ data }) => (
      accepts.push(data),
      accepts.length === 1
        ? refuse(409, 'ID_TAKEN')
        : ok({ transferId: '1', ticketId: 'TNEWNEWNEWNEWNEWNEW2', acceptedAt: '2027-01-10T10:00:00.000Z' })
    ),
  });
  render(<TransferPage />);
  await tick();
  expect(screen.getByTestId('transfer-preview').textContent).toContain('星河巡回演唱会');
  expect(screen.getByTestId('transfer-preview').textContent).toContain('¥680');
  // Typed in: the form's own check first (nothing sent for an empty name).
  fireEvent.click(screen.getByTestId('transfer-accept'));
  await tick();
  expect(accepts).toHaveLength(0);
  fireEvent.change(screen.getByTestId('transfer-name'), { target: { value: '李四' } });
  fireEvent.change(screen.getByTestId('transfer-id'), { target: { value: ID_B } });
  fireEvent.click(screen.getByTestId('transfer-accept'));
  await tick();
  expect(accepts[0]).toEqual({ attendee: { name: '李四', idType: 'id_card', idNumber: ID_B } });
  expect(screen.getByTestId('error-panel').textContent).toContain('该证件已持有本场次门票');
  fireEvent.click(screen.getByTestId('error-action'));
  // A saved attendee instead: sent by its id, then the wallet.
  fireEvent.click(screen.getAllByTestId('transfer-saved')[0]!);
  fireEvent.click(screen.getByTestId('transfer-accept'));
  await tick();
  expect(accepts[1]).toEqual({ savedAttendeeId: '1' });
  expect(taro.reLaunch).toHaveBeenCalledWith({ url: '/pages/tickets/index' });
});
