import type { Ticket } from '@showtix/shared-types';
import { request } from './http';
import { isUnreachable, toApiError } from './errors';
import { KEYS, readJson, write } from './storage';

/**
 * The fan's tickets (GET /api/v1/tickets). Each carries the fixed signed part of its QR and its
 * own code key, from which the phone makes the rotating code itself, also offline.
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
    const tickets = await listTickets();
    const at = now();
    try {
      write(KEYS.tickets, JSON.stringify({ at, items: tickets } satisfies Cached));
    } catch {
      // storage full: the wallet still shows, only not offline
    }
    return { tickets, fetchedAt: at, offline: false };
  } catch (err) {
    const cached = isUnreachable(toApiError(err).code) ? cachedWallet() : undefined;
    if (cached) return cached;
    throw err;
  }
}
