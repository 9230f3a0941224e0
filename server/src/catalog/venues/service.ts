import type {
  ParsedLayout,
  VenueDetail,
  VenueSummary,
  BlockSpec,
  SeatSpecInput,
} from '@showtix/shared-types';
import type { Conn, Db } from '../../db/pool';
import { insertLayout, writeVenue } from '../admin-repo';
import { generateLayout, type SeatSpec } from '../layout';
import { appError } from '../../errors';
import type { Actor } from '../../audit/actor';
import { audited } from '../../audit/tx';
import { parseLayout, seatsToCsv } from './csv';
import { checkLayout } from './layout';
import * as repo from './repo';

export interface LayoutInput {
  seats?: SeatSpecInput[];
  blocks?: BlockSpec[];
  zones: { name: string; capacity: number }[];
}

/** Seats from explicit coordinates and/or generator blocks, refused if two share a label. */
export function resolveSeats(input: LayoutInput): SeatSpec[] {
  const seats = [...(input.seats ?? []), ...generateLayout(input.blocks ?? [], input.seats?.length ?? 0)];
  const { duplicates } = checkLayout(seats);
  if (duplicates.length) {
    throw appError(
      'VALIDATION_FAILED',
      { duplicates: duplicates.slice(0, 20) },
      `座位编号重复：${duplicates.slice(0, 3).join('、')}`,
    );
  }
  const zoneNames = new Set(input.zones.map((z) => z.name));
  if (zoneNames.size !== input.zones.length)
    throw appError('VALIDATION_FAILED', { field: 'zones' }, '站席区名称重复');
  return seats;
}

/** What the audit log keeps of a venue: its shape, not 2,000 coordinates. */
function auditShape(v: VenueSummary, blocks?: BlockSpec[]) {
  return {
    name: v.name,
    city: v.city,
    address: v.address,
    latitude: v.latitude,
    longitude: v.longitude,
    seatCount: v.seatCount,
    zoneCount: v.zoneCount,
    sections: v.sections,
    ...(blocks ? { blocks } : {}),
  };
}

/** Locks the venue for an edit (a concurrent edit waits) and reads it as it stands before. */
async function lockedSummary(c: Conn, id: string): Promise<VenueSummary> {
  if (!(await repo.lockVenue(c, id))) throw appError('NOT_FOUND', undefined, '场馆不存在');
  return (await repo.venueSummary(c, id))!;
}

export class VenueService {
  constructor(private readonly db: Db) {}

  list(): Promise<VenueSummary[]> {
    return repo.listVenues(this.db);
  }

  async get(id: string): Promise<VenueDetail> {
    const v = await repo.venueDetail(this.db, id);
    if (!v) throw appError('NOT_FOUND', undefined, '场馆不存在');
    return v;
  }

  /** Preview for the builder: the seats the blocks make and what is wrong with them. */
  generate(blocks: BlockSpec[]) {
    const seats = generateLayout(blocks);
    return { seats, ...checkLayout(seats) };
  }

  parse(format: 'csv' | 'json', text: string): ParsedLayout & { duplicates: string[]; overlaps: number } {
    const parsed = parseLayout(format, text);
    return { ...parsed, ...checkLayout(parsed.seats) };
  }

  async create(
    who: Actor,
    input: LayoutInput & repo.VenueMeta & { name: string; city: string; address: string },
    now: Date,
  ): Promise<VenueSummary> {
    const seats = resolveSeats(input);
    return audited(
      this.db,
      who,
      now,
      async (c) => {
        const id = await writeVenue(c, {
          name: input.name,
          city: input.city,
          address: input.address,
          latitude: input.latitude ?? null,
          longitude: input.longitude ?? null,
          seats,
          zones: input.zones,
        });
        return (await repo.venueSummary(c, id))!;
      },
      (v) => ({
        action: 'venue.create',
        entityType: 'venue',
        entityId: v.id,
        after: auditShape(v, input.blocks),
      }),
    );
  }

  async update(who: Actor, id: string, input: repo.VenueMeta, now: Date): Promise<VenueSummary> {
    return audited(
      this.db,
      who,
      now,
      async (c) => {
        const before = await lockedSummary(c, id);
        await repo.updateVenueMeta(c, id, input);
        return { before, after: (await repo.venueSummary(c, id))! };
      },
      (r) => ({
        action: 'venue.update',
        entityType: 'venue',
        entityId: id,
        before: auditShape(r.before),
        after: auditShape(r.after),
      }),
    ).then((r) => r.after);
  }

  /** Replaces the seats and zones of a venue that no session sells yet. */
  async replaceLayout(who: Actor, id: string, input: LayoutInput, now: Date): Promise<VenueSummary> {
    const seats = resolveSeats(input);
    const r = await audited(
      this.db,
      who,
      now,
      async (c) => {
        const before = await lockedSummary(c, id);
        if (before.sessionCount > 0) {
          throw appError(
            'EDIT_CONFLICT',
            { sessions: before.sessionCount },
            '已有场次使用该场馆，不能再修改座位图',
          );
        }
        await repo.clearLayout(c, id);
        await insertLayout(c, id, seats, input.zones);
        return { before, after: (await repo.venueSummary(c, id))! };
      },
      (x) => ({
        action: 'venue.layout',
        entityType: 'venue',
        entityId: id,
        before: auditShape(x.before),
        after: auditShape(x.after, input.blocks),
      }),
    );
    return r.after;
  }

  async export(id: string, format: 'csv' | 'json'): Promise<{ name: string; body: string }> {
    const v = await this.get(id);
    const seats = v.seats.map(({ section, row, number, x, y }) => ({ section, row, number, x, y }));
    if (format === 'csv') return { name: `${v.name}-座位图.csv`, body: seatsToCsv(seats) };
    const zones = v.zones.map(({ name, capacity }) => ({ name, capacity }));
    return { name: `${v.name}-座位图.json`, body: JSON.stringify({ name: v.name, seats, zones }, null, 1) };
  }
}
