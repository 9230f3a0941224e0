// A chaos run's fans and gate staff talk to the server only through these calls, as the
// mini-program does (retries after a network error or a 5xx, a fresh login code each try, a
// phone key bound per ticket), and count the answers they get for the run's log.
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { root } from '../lib.mjs';

// The shared ticket-code module: a fan's phone binds its own key and signs each step (issue 11).
const tc = createRequire(import.meta.url)(`${root}/shared-types/dist/ticket-code.js`);

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Answers a client may retry (the request may or may not have been applied). */
const RETRYABLE = new Set([0, 500, 502, 503, 504]);

/** One HTTP call, retried like a mini-program does after a network error or a 5xx. */
export async function call(url, method, p, o = {}, tries = 6) {
  for (let i = 0; ; i++) {
    let status = 0;
    let body;
    try {
      const headers = { ...(o.headers ?? {}) };
      if (o.token) headers.authorization = `Bearer ${o.token}`;
      if (o.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(url + p, {
        method,
        headers,
        body: o.body === undefined ? undefined : JSON.stringify(o.body),
        signal: AbortSignal.timeout(15_000),
      });
      status = res.status;
      const text = await res.text();
      body = text ? JSON.parse(text) : undefined;
    } catch {
      status = status || 0;
    }
    if (!RETRYABLE.has(status) || i >= tries) return { status, body };
    await sleep(300 * 2 ** Math.min(i, 4));
  }
}

/** An answer's error code, wherever the route puts it. */
export const code = (r) => r.body?.code ?? r.body?.error?.code;

/** A fan's wx.login: a login code is single-use (code2session), so every try needs a fresh one. */
export async function loginAs(w, openid) {
  let login;
  for (let t = 0; t < 6 && login?.status !== 200; t++) {
    if (t) await sleep(300 * 2 ** Math.min(t, 4));
    login = await call(
      w.url,
      'POST',
      '/api/v1/auth/wx-login',
      { body: { code: w.sim.login(openid).code } },
      0,
    );
  }
  if (login.status !== 200) throw new Error(`login ${login.status} ${JSON.stringify(login.body)}`);
  return login.body.token;
}

/** Binds a ticket to a new phone key and returns the code that phone shows now ('' if refused). */
export async function phoneCode(url, token, ticketId) {
  const priv = new Uint8Array(randomBytes(32));
  const { pub } = tc.deviceKeyFromSeed(priv);
  const b = await call(url, 'POST', `/api/v1/tickets/${ticketId}/bind`, {
    token,
    body: { publicKey: tc.bytesToB64url(pub), manualKey: tc.manualKeyOf(priv, ticketId) },
  });
  return b.body?.binding ? tc.makeCode(b.body.binding, priv, Date.now()) : '';
}

/** Buyer i's gate (G0..G3) scans a code for the session; answers the check-in reply. */
export function gateScan(w, i, sessionId, qr) {
  return call(w.url, 'POST', '/api/v1/checkin', {
    token: w.staffToken,
    body: { qr, gate: `G${i % 4}`, sessionId },
  });
}

/** Counts a scan's result (`checkin-new:admitted`) under `what`. */
export function tallyScan(stats, what, s) {
  tally(stats, what, { status: 0, body: { code: s.body?.result ?? s.status } });
}

/** Counts answers by route and code (`refund:200`, `hold:SEAT_TAKEN`), for the run's log. */
export function tally(stats, what, r) {
  const k = `${what}:${r.status === 200 || r.status === 201 ? r.status : (code(r) ?? r.status)}`;
  stats.answers ??= {};
  stats.answers[k] = (stats.answers[k] ?? 0) + 1;
}

/** Polls fn every `everyMs` until it answers truthy (that answer), or `ms` pass (undefined). */
export async function until(fn, ms, everyMs = 400) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await fn();
    if (v) return v;
    await sleep(everyMs);
  }
  return undefined;
}
