import { ed25519 } from '@noble/curves/ed25519';
import {
  bytesToB64url,
  makeCode,
  manualKeyOf,
  type OfflineBundle,
} from '@showtix/shared-types/dist/ticket-code';
import { assignStaff, createSession, createUsers, type SessionFixture } from './fixtures';
import { createPayEnv, FREE_REFUNDS, type PayEnv } from './pay-env';

/** A fan's phone: an Ed25519 key generated "on the device", as the wallet does. */
export interface Device {
  priv: Uint8Array;
  pub: string;
}

export function newDevice(): Device {
  const priv = ed25519.utils.randomPrivateKey();
  return { priv, pub: bytesToB64url(ed25519.getPublicKey(priv)) };
}

/** A ticket as the fan's API returns it, plus the device it is bound to. */
export interface HeldTicket {
  ticketId: string;
  orderNo: string;
  sessionId: string;
  status: string;
  binding: string;
  bindingId: string;
  device: Device;
  token: string;
}

/**
 * Gate test bench: a paying environment, a session and another one, one staff member of the
 * first session's show, and fans whose tickets are bound to their phones.
 */
export class GateBench {
  p!: PayEnv;
  s!: SessionFixture;
  other!: SessionFixture;
  staff!: string;
  staffToken!: string;
  private readonly used = new Map<string, number>();

  async start(): Promise<void> {
    this.p = await createPayEnv();
    this.s = await createSession(this.p.deps, {
      seats: 60,
      refundRules: FREE_REFUNDS,
    });
    this.other = await createSession(this.p.deps, { seats: 10 });
    [this.staff] = await createUsers(this.p.deps, 1);
    await this.assign(this.s.showId);
    this.staffToken = await this.p.api.tokenFor(this.staff);
  }

  async assign(showId: string): Promise<void> {
    await assignStaff(this.p.deps, this.staff, showId);
  }

  now = (): number => this.p.clock.now().getTime();

  async bind(token: string, ticketId: string, device: Device) {
    return this.p.api.call('POST', `/api/v1/tickets/${ticketId}/bind`, {
      token,
      body: { publicKey: device.pub, manualKey: manualKeyOf(device.priv, ticketId) },
    });
  }

  /** Buys n seats of a session as a new fan, and binds each ticket to a new phone. */
  async tickets(
    session: SessionFixture,
    n: number,
    realName?: { name: string; idNumber: string }[],
  ): Promise<HeldTicket[]> {
    const from = this.used.get(session.sessionId) ?? 0;
    this.used.set(session.sessionId, from + n);
    const body = {
      sessionId: session.sessionId,
      seatIds: session.seatIds.slice(from, from + n),
      ...(realName ? { attendees: realName.map((a) => ({ ...a, idType: 'id_card' })) } : {}),
    };
    const { fan, orderNo, payParams } = await this.p.orderAndPrepay(
      `openid-gate-${from}-${session.sessionId}`,
      body,
    );
    this.p.sim.pay(payParams);
    const items = await this.p.until(async () => {
      const r = await this.p.api.call('GET', '/api/v1/tickets', { token: fan.token });
      const mine = r.body.items.filter((t: { orderNo: string }) => t.orderNo === orderNo);
      return mine.length === n && mine;
    }, 'tickets');
    const held: HeldTicket[] = [];
    for (const t of items) {
      const device = newDevice();
      const b = await this.bind(fan.token, t.ticketId, device);
      if (b.status !== 200) throw new Error(`bind failed: ${JSON.stringify(b.body)}`);
      held.push({ ...t, binding: b.body.binding, bindingId: b.body.bindingId, device, token: fan.token });
    }
    return held;
  }

  /** What the bound phone shows at `at`. */
  code = (t: HeldTicket, at = this.now()): string => makeCode(t.binding, t.device.priv, at);

  scan(qr: string, gate = 'A1', extra: object = {}, token = this.staffToken) {
    return this.p.api.call('POST', '/api/v1/checkin', {
      token,
      body: { qr, gate, sessionId: this.s.sessionId, ...extra },
    });
  }

  async bundle(sessionId = this.s.sessionId): Promise<OfflineBundle> {
    return (
      await this.p.api.call('GET', `/api/v1/staff/sessions/${sessionId}/offline-bundle`, {
        token: this.staffToken,
      })
    ).body as OfflineBundle;
  }

  sync(body: object) {
    return this.p.api.call('POST', '/api/v1/checkin/sync', { token: this.staffToken, body });
  }

  close = () => this.p.close();
}
