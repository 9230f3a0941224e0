import { render, screen } from '@testing-library/react';
import { loggedInFan, tick } from './fan';
import { ok, serveApi } from './fake-api';
import { walletTicket } from './fixtures';
import TicketsPage from '../../src/pages/tickets/index';
import { makeCode } from '../../src/services/ticket-code';
import taro from './stubs/taro';
import { utf8Decode, utf8Encode, base64ToBinary } from '../../src/utils/text-encoding';

// The server's signature by node:crypto, the phone's by the shared module (test/support/tickets.js).
const support = require('../support/tickets');

const STEP = 20_000;
/** 1.5 s before a window boundary. */
const NOW = Math.ceil(new Date('2027-01-15T10:50:00.000Z').getTime() / STEP) * STEP + 3 * STEP - 1_500;
const keys = support.keyPair();
const phone = support.device();
const signed = support.ticket(keys, 'TABCDEFGHJKLMNPQRSTU', '7', phone);

const live = walletTicket(signed.ticketNo, {
  qr: signed.binding.binding,
  binding: signed.binding,
  codeStepMs: STEP,
});
/** This phone's key, as the wallet stored it when it first bound the ticket. */
const onThisPhone = () => taro.setStorageSync('showtix.ticketKey', phone.seed);

const shown = () => screen.getByTestId('live-qr').dataset.qr!;
const ring = () => screen.getByTestId('countdown-ring').textContent;

loggedInFan(NOW);

it('shows the code of the current window and changes it exactly at the window boundary', async () => {
  onThisPhone();
  serveApi({ 'GET /api/v1/tickets': ok({ items: [live] }) });
  render(<TicketsPage />);
  await tick(0);
  const first = shown();
  expect(first).toBe(support.qrAt(signed, NOW));
  expect(first).toBe(makeCode(signed.binding.binding, phone.priv, NOW));
  expect(first).toMatch(/^STX3:[0-9A-Z $%*+\-./:]+$/); // QR alphanumeric mode
  expect(screen.getByTestId('spoken-code').textContent!.replace(/\D/g, '')).toBe(
    support.spokenAt(signed, NOW),
  );
  expect(ring()).toBe('2');
  await tick(1_000);
  expect(shown()).toBe(first);
  expect(ring()).toBe('1');
  await tick(499);
  expect(shown()).toBe(first);
  await tick(1);
  const next = shown();
  expect(next).not.toBe(first);
  expect(next).toBe(support.qrAt(signed, NOW + 1_500));
  expect(ring()).toBe('20');
  expect(screen.getByTestId('ticket').textContent).toContain('动态二维码，每 20 秒刷新');
  await tick(STEP);
  expect(shown()).toBe(support.qrAt(signed, NOW + 1_500 + STEP));
});

it('voided and refunding tickets show no code; an admitted one shows 已入场 with the time', async () => {
  serveApi({
    'GET /api/v1/tickets': ok({
      items: [
        { ...live, ticketId: 'TV', status: 'voided' },
        { ...live, ticketId: 'TR', status: 'refunding' },
        { ...live, ticketId: 'TC', checkedInAt: '2027-01-15T11:02:00.000Z' },
      ],
    }),
  });
  render(<TicketsPage />);
  await tick(0);
  expect(screen.queryByTestId('live-qr')).toBeNull();
  const cards = screen.getAllByTestId('ticket');
  expect(cards.map((c) => c.dataset.status)).toEqual(['voided', 'refunding', 'checked_in']);
  expect(cards[2]!.textContent).toContain('已入场');
  expect(screen.getByTestId('checked-in-at').textContent).toBe('2027.01.15 周五 19:02 入场');
  // A voided ticket is a refunded one: the fan reads 已退款, not 已作废.
  expect(cards[0]!.textContent).toContain('已退款');
  expect(cards[0]!.textContent).toContain('此票已退款，不能入场');
  expect(cards[0]!.textContent).not.toContain('作废');
});

it('keeps working offline and after a restart: the list and the key kept on the phone, codes still rotating', async () => {
  onThisPhone();
  serveApi({ 'GET /api/v1/tickets': ok({ items: [live] }) });
  const online = render(<TicketsPage />);
  await tick(0);
  online.unmount();

  serveApi({ 'GET /api/v1/tickets': 'network' });
  render(<TicketsPage />);
  await tick(0);
  expect(screen.getByTestId('wallet-offline').textContent).toContain('网络不可用');
  expect(shown()).toBe(support.qrAt(signed, NOW));
  await tick(1_500);
  expect(shown()).toBe(support.qrAt(signed, NOW + 1_500));
});

it('the text-encoding polyfill agrees with the platform', () => {
  for (const s of ['STX3', '检票 ✓', '𠮷野家', '']) {
    expect(utf8Encode(s)).toEqual(new Uint8Array(Buffer.from(s, 'utf8')));
    expect(utf8Decode(Buffer.from(s, 'utf8'))).toBe(s);
  }
  expect(base64ToBinary(Buffer.from([0, 255, 16, 200]).toString('base64'))).toBe('\u0000\u00ff\u0010\u00c8');
});

it('binds a ticket no phone holds yet to this phone, with a key generated here', async () => {
  const unbound = { ...live, qr: '', binding: undefined };
  let sent: { publicKey: string; manualKey: string } | undefined;
  serveApi({
    'GET /api/v1/tickets': ok({ items: [unbound] }),
    'POST /api/v1/tickets/TABCDEFGHJKLMNPQRSTU/bind': (req: { data: unknown }) => {
      sent = req.data as typeof sent;
      const bound = support.ticket(keys, live.ticketId, '7', { ...phone, pub: sent!.publicKey });
      return ok({ ...bound.binding, rebound: false });
    },
  });
  render(<TicketsPage />);
  await tick(0);
  const seed = taro.getStorageSync('showtix.ticketKey') as string;
  expect(seed).toMatch(/^[\w-]{43}$/);
  expect(sent!.publicKey).not.toBe(phone.pub); // a new key, made on this phone
  expect(JSON.stringify(sent)).not.toContain(seed); // the private key is never sent
  expect(shown()).toMatch(/^STX3:/);
});

it('a ticket bound to another phone shows no code, and offers to move it here', async () => {
  onThisPhone();
  const other = support.ticket(keys, live.ticketId, '7', support.device());
  serveApi({ 'GET /api/v1/tickets': ok({ items: [{ ...live, binding: other.binding }] }) });
  render(<TicketsPage />);
  await tick(0);
  expect(screen.queryByTestId('live-qr')).toBeNull();
  expect(screen.getByTestId('ticket-elsewhere').textContent).toContain('另一台手机');
  expect(screen.getByTestId('move-here')).toBeTruthy();
});

it('a real-name ticket says whose it is and what the gate checks; every usable ticket carries 入场须知', async () => {
  onThisPhone();
  const realName = { ...live, attendee: { name: '欧**娜', idMasked: '110***********002X' } };
  serveApi({ 'GET /api/v1/tickets': ok({ items: [realName] }) });
  render(<TicketsPage />);
  await tick(0);
  expect(screen.getByTestId('ticket-holder').textContent).toBe('实名观演人 欧**娜 110***********002X');
  const notice = screen.getByTestId('entry-notice').textContent!;
  expect(notice).toContain('入场须知');
  expect(notice).toContain('本人有效证件原件');
});

it('a ticket without a real-name holder shows no holder line and no ID rule', async () => {
  onThisPhone();
  serveApi({ 'GET /api/v1/tickets': ok({ items: [live] }) });
  render(<TicketsPage />);
  await tick(0);
  expect(screen.queryByTestId('ticket-holder')).toBeNull();
  expect(screen.getByTestId('entry-notice').textContent).not.toContain('证件');
});
