import type Redis from 'ioredis';
import type { TicketBinding } from '@showtix/shared-types';
import {
  CODE_STEP_MS,
  bytesToB64url,
  b64urlToBytes,
  encodeBinding,
} from '@showtix/shared-types/dist/ticket-code';
import { recordAudit } from '../audit/repo';
import { inTransaction, type Conn, type Db } from '../db/pool';
import { appError } from '../errors';
import { PathLimiter, rateLimited, type Client } from '../risk/limits';
import type { TicketKeys } from './keys';
import * as repo from './bindings-repo';
import { TICKET_STATUS } from './status';

/** A binding stays valid this long after its session starts (late arrivals, long festivals). */
export const BINDING_VALID_AFTER_START_MS = 24 * 3_600_000;
/** At most this many bindings of one ticket in 24 hours: the first one and two changes of phone. */
export const BINDINGS_PER_DAY = 3;

export interface BindInput {
  /** The device's Ed25519 public key (base64url, 32 bytes), generated on the device. */
  publicKey: string;
  /** manualKeyOf(device key, ticket number): checks the holder's spoken code at manual entry. */
  manualKey: string;
}

/**
 * Binds a fan's device key to a ticket. Binding again from the same device is a no-op; from another
 * device it is a re-bind: the old binding is revoked in the same transaction (online scans refuse
 * it at once, offline bundles list it from their next download), limited per ticket and per
 * user/device, refused when the organiser froze re-binds before the show, and audited.
 */
export class BindingService {
  private readonly limiter: PathLimiter;

  constructor(
    private readonly db: Db,
    private readonly keys: TicketKeys,
    redis: Redis,
    keyPrefix: string,
  ) {
    this.limiter = new PathLimiter(redis, keyPrefix, 'ticket-bind', {
      user: { points: 30, durationS: 3600 },
      ip: { points: 600, durationS: 60 },
      device: { points: 30, durationS: 3600 },
    });
  }

  /** The signed binding of a row, as the device and the scanners read it. */
  view(row: repo.BindingRow, ticketNo: string, sessionId: string): TicketBinding {
    const unsigned = encodeBinding({
      kid: this.keys.activeKid,
      ticketNo,
      sessionId: String(sessionId),
      bindingId: String(row.id),
      validUntil: Math.floor(row.valid_until.getTime() / 1000),
      devicePub: b64urlToBytes(row.device_key),
    });
    const signed = new Uint8Array(unsigned.length + 64);
    signed.set(unsigned);
    signed.set(this.keys.signBytes(unsigned), unsigned.length);
    return {
      bindingId: String(row.id),
      binding: bytesToB64url(signed),
      devicePublicKey: row.device_key,
      validUntil: row.valid_until.toISOString(),
      boundAt: row.created_at.toISOString(),
      codeStepMs: CODE_STEP_MS,
    };
  }

  async bind(
    userId: string,
    client: Client,
    ticketNo: string,
    input: BindInput,
    now: Date,
  ): Promise<TicketBinding & { rebound: boolean }> {
    await this.limiter.consume(userId, client);
    return inTransaction(this.db, async (conn) => {
      const t = await repo.lockOwnTicket(conn, ticketNo, userId);
      if (!t) throw appError('NOT_FOUND', undefined, '门票不存在');
      if (t.status !== TICKET_STATUS.VALID) throw appError('TICKET_NOT_BINDABLE');
      const live = await repo.liveBinding(conn, t.id);
      if (live?.device_key === input.publicKey)
        return { ...this.view(live, ticketNo, t.session_id), rebound: false };
      if (live) {
        await this.checkRebind(conn, t, now);
        // The old phone's codes stop here; the live-binding unique key then takes the new one.
        await repo.revokeBinding(conn, live.id, 'rebind', now);
      }
      const row = await this.insert(conn, t, userId, client, input, now);
      await recordAudit(
        conn,
        {
          actor: { adminId: null, username: `user:${userId}`, ip: client.ip ?? '' },
          action: live ? 'ticket.rebind' : 'ticket.bind',
          entityType: 'ticket',
          entityId: ticketNo,
          ...(live ? { before: { bindingId: String(live.id), device: live.device_key.slice(0, 8) } } : {}),
          after: {
            bindingId: String(row.id),
            device: input.publicKey.slice(0, 8),
            deviceId: client.device ?? null,
          },
        },
        now,
      );
      return { ...this.view(row, ticketNo, t.session_id), rebound: Boolean(live) };
    });
  }

  private async checkRebind(
    conn: Conn,
    t: { id: string; starts_at: Date; rebind_freeze_minutes: number | null },
    now: Date,
  ): Promise<void> {
    const freeze = t.rebind_freeze_minutes;
    if (freeze !== null && now.getTime() >= t.starts_at.getTime() - freeze * 60_000)
      throw appError('REBIND_FROZEN', { freezeMinutes: freeze });
    if ((await repo.bindingsSince(conn, t.id, new Date(now.getTime() - 86_400_000))) >= BINDINGS_PER_DAY)
      throw rateLimited(3_600_000);
  }

  private async insert(
    conn: Conn,
    t: { id: string; starts_at: Date },
    userId: string,
    client: Client,
    input: BindInput,
    now: Date,
  ): Promise<repo.BindingRow> {
    const id = await repo.insertBinding(conn, {
      ticketId: t.id,
      userId,
      deviceKey: input.publicKey,
      manualKey: input.manualKey,
      deviceId: client.device ?? null,
      validUntil: new Date(t.starts_at.getTime() + BINDING_VALID_AFTER_START_MS),
      now,
    });
    return (await repo.bindingById(conn, id))!;
  }
}
