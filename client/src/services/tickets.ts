import { request } from './http';
import type { Ticket } from '@showtix/shared-types';

export async function listTickets(): Promise<Ticket[]> {
  return (await request<{ items: Ticket[] }>('/api/v1/tickets', { auth: true })).items;
}
