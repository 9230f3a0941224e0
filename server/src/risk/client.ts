import type { Context } from 'koa';
import type { Client } from './limits';

/** Who is asking, for rate limits and risk flags: the address, and the mini-program's device id. */
export function clientOf(ctx: Context): Client {
  return clientFrom(ctx.ip, ctx.get('x-device-id'));
}

/** The client from its address and X-Device-Id header (an id of another form is ignored). */
export function clientFrom(ip: string, device: string): Client {
  return { ip, device: /^[\w-]{8,64}$/.test(device) ? device : undefined };
}
