import type { Context } from 'koa';
import type { Client } from './limits';

/** Who is asking, for rate limits and risk flags: the address, and the mini-program's device id. */
export function clientOf(ctx: Context): Client {
  const device = ctx.get('x-device-id');
  return { ip: ctx.ip, device: /^[\w-]{8,64}$/.test(device) ? device : undefined };
}
