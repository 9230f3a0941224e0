import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import { IdSchema } from '@showtix/shared-types';
import type { Clock } from '../clock';
import { pathId } from '../http/path-params';
import { principal } from '../http/auth';
import { appError } from '../errors';
import { clientOf } from '../risk/client';
import type { CheckinService, Scan } from './service';

const Gate = z.string().trim().min(1).max(32);
const TicketNo = z.string().regex(/^T[2-9A-Z]{19}$/);

/**
 * sessionId: the session this gate checks; tickets of other sessions are refused. The public
 * contract's `{qr, gate}` (no sessionId) admits only a ticket whose session is on now (its entry
 * window, CheckinService), so a scanner cannot admit yesterday's ticket today either way. A ticket
 * number typed in (manual entry) needs a second factor besides: the number is printed in every QR
 * and screenshot.
 */
const CheckinSchema = z.union([
  z.strictObject({ qr: z.string().min(1).max(1024), gate: Gate, sessionId: IdSchema.optional() }),
  z.strictObject({
    ticketNo: TicketNo,
    gate: Gate,
    sessionId: IdSchema,
    /** Second factor (one of): the ID's last four characters, or the holder's six spoken digits. */
    idLast4: z
      .string()
      .regex(/^\d{3}[\dXx]$/)
      .optional(),
    spokenCode: z
      .string()
      .regex(/^\d{6}$/)
      .optional(),
  }),
]);

/** bundle: the token of the offline bundle the scans were checked with (its session and window). */
const SyncSchema = z.strictObject({
  gate: Gate,
  sessionId: IdSchema,
  bundle: z.string().min(1).max(200),
  checkins: z
    .array(
      z.strictObject({
        ticketNo: TicketNo,
        scannedAt: z.iso.datetime({ offset: true }),
        /** The code the phone showed, as scanned: checked again at scannedAt. */
        code: z.string().min(1).max(600),
      }),
    )
    .max(5_000),
});

/** Who scanned at which gate on which device: what every admission and conflict records. */
function scanOf(ctx: Context, gate: string): Scan {
  return { staffUserId: principal(ctx).userId, gate, device: clientOf(ctx).device ?? null };
}

export function checkinRoutes(checkins: CheckinService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: '/api/v1' });
  r.use(auth);
  r.post('/checkin', async (ctx) => {
    const input = CheckinSchema.parse(ctx.request.body);
    const scan = scanOf(ctx, input.gate);
    if ('qr' in input) {
      ctx.body = await checkins.checkin(scan, input, clock.now());
      return;
    }
    const { idLast4, spokenCode, ...rest } = input;
    if (!idLast4 === !spokenCode)
      throw appError('VALIDATION_FAILED', { field: 'ticketNo' }, '手工核验需要第二凭证，仅凭票号不能入场');
    const factor = idLast4 ? { idLast4 } : { spokenCode: spokenCode! };
    ctx.body = await checkins.manual(scan, { ...rest, ...factor }, clock.now());
  });
  r.post('/checkin/sync', async (ctx) => {
    const input = SyncSchema.parse(ctx.request.body);
    const scan = scanOf(ctx, input.gate);
    const items = input.checkins.map((c) => ({ ...c, scannedAt: new Date(c.scannedAt) }));
    ctx.body = await checkins.sync(scan, input.sessionId, input.bundle, items, clock.now());
  });
  r.get('/staff/sessions/:sessionId/offline-bundle', async (ctx) => {
    ctx.body = await checkins.offlineBundle(principal(ctx).userId, pathId(ctx.params.sessionId), clock.now());
  });
  return r;
}
