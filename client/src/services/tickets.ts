import type { Ticket, TicketBinding } from '@showtix/shared-types';
import { bindBody, deviceKey } from './device-key';
import { request } from './http';
import { isUnreachable, toApiError } from './errors';
import { KEYS, readJson, write } from './storage';

/**
 * The fan's tickets (GET /api/v1/tickets). Each carries the server's binding to the device that
 * shows its codes; this phone makes the rotating code from that binding and its own key (see
 * device-key.ts), also offline. A ticket no device holds yet is bound to this phone on load.
 */
export interface Wallet {
  tickets: Ticket[];
  /** When the list was fetched (this answer, or the cached one). */
  fetchedAt: number;
  /** True when the network failed and the list is the one kept from before. */
  offline: boolean;
}

export async function listTickets(): Promise<Ticket[]> {
  return (await request<{ items: Ticket[] }>('/api/v1/tickets', { auth: true })).items;
}

interface Cached {
  at: number;
  items: Ticket[];
}

export function cachedWallet(): Wallet | undefined {
  const c = readJson<Cached>(KEYS.tickets);
  return c && Array.isArray(c.items) ? { tickets: c.items, fetchedAt: c.at, offline: true } : undefined;
}

/**
 * The wallet from the server, kept in storage; without a network, the list kept from before
 * (its codes rotate on the phone, so they still open the gate).
 */
export async function loadWallet(now: () => number = Date.now): Promise<Wallet> {
  try {
    const tickets = await bindUnbound(await listTickets());
    const at = now();
    keep(at, tickets);
    return { tickets, fetchedAt: at, offline: false };
  } catch (err) {
    const cached = isUnreachable(toApiError(err).code) ? cachedWallet() : undefined;
    if (cached) return cached;
    throw err;
  }
}

function keep(at: number, items: Ticket[]): void {
  try {
    write(KEYS.tickets, JSON.stringify({ at, items } satisfies Cached));
  } catch {
    // storage full: the wallet still shows, only not offline
  }
}

/** A ticket that can still open a gate (and so needs a code). */
export const usable = (t: Ticket) => t.status === 'valid' && !t.checkedInAt;

/** POST /api/v1/tickets/:ticketId/bind with this phone's key: a re-bind when another phone held it. */
export async function bindHere(ticketId: string): Promise<TicketBinding & { rebound: boolean }> {
  const body = bindBody(await deviceKey(), ticketId);
  return request(`/api/v1/tickets/${encodeURIComponent(ticketId)}/bind`, {
    method: 'POST',
    auth: true,
    body,
  });
}

/** Binds the usable tickets no phone holds yet to this one (the first time the wallet shows them). */
async function bindUnbound(tickets: Ticket[]): Promise<Ticket[]> {
  const out: Ticket[] = [];
  for (const t of tickets) {
    if (!usable(t) || t.binding) out.push(t);
    else {
      try {
        const { rebound: _r, ...binding } = await bindHere(t.ticketId);
        out.push({ ...t, binding, qr: binding.binding });
      } catch {
        out.push(t); // shown without a code; the next load tries again
      }
    }
  }
  return out;
}

/** Moves a ticket's code to this phone (the old phone's code stops working), and keeps the wallet. */
export async function moveHere(ticketId: string, now: () => number = Date.now): Promise<Ticket[]> {
  const { rebound: _r, ...binding } = await bindHere(ticketId);
  const tickets = (cachedWallet()?.tickets ?? []).map((t) =>
    t.ticketId === ticketId ? { ...t, binding, qr: binding.binding } : t,
  );
  keep(now(), tickets);
  return tickets;
}
