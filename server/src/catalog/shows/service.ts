import type { Readable } from 'node:stream';
import type { AdminShowDetail, AdminShowSummary, RefundTier, ShowCategory } from '@showtix/shared-types';
import { insertShow } from '../admin-repo';
import type { Db } from '../../db/pool';
import { appError } from '../../errors';
import type { AdminConfig } from '../../config/admin';
import type { Actor } from '../../audit/actor';
import { sessionSummariesOfShow } from '../sessions/repo';
import { audited } from '../../audit/tx';
import { readLimited, storePoster } from './poster';
import * as repo from './repo';

export interface ShowInput {
  title: string;
  category: ShowCategory;
  venueId: string;
  description: string;
  posterUrl: string | null;
  refundRules: RefundTier[];
  showPurchaseLimit: number | null;
  /** 改签 rules (update only; a new show allows none until the organiser sets them). */
  exchangeRules?: { allowed: boolean; cutoffMinutes: number };
}

const auditShape = (s: repo.ShowFull) => ({
  title: s.title,
  category: s.category,
  venueId: s.venueId,
  description: s.description,
  posterUrl: s.posterUrl,
  refundRules: s.refundRules,
  showPurchaseLimit: s.showPurchaseLimit,
  exchangeRules: s.exchangeRules,
});

export class ShowService {
  constructor(
    private readonly db: Db,
    private readonly cfg: AdminConfig,
    private readonly invalidate: (sessionIds: string[]) => void,
  ) {}

  list(): Promise<AdminShowSummary[]> {
    return repo.listShows(this.db);
  }

  async get(id: string): Promise<AdminShowDetail> {
    const show = await repo.findShow(this.db, id);
    if (!show) throw appError('NOT_FOUND', undefined, '演出不存在');
    return { ...show, sessions: await sessionSummariesOfShow(this.db, id) };
  }

  async create(who: Actor, input: ShowInput, now: Date): Promise<AdminShowDetail> {
    const id = await audited(
      this.db,
      who,
      now,
      async (c) => {
        if (!(await repo.venueExists(c, input.venueId)))
          throw appError('VALIDATION_FAILED', { field: 'venueId' }, '场馆不存在');
        const id = await insertShow(c, input);
        if (input.exchangeRules) await repo.updateShow(c, id, { exchangeRules: input.exchangeRules });
        return id;
      },
      (newId) => ({ action: 'show.create', entityType: 'show', entityId: newId, after: input }),
    );
    return this.get(id);
  }

  async update(who: Actor, id: string, input: Partial<ShowInput>, now: Date): Promise<AdminShowDetail> {
    await audited(
      this.db,
      who,
      now,
      async (c) => {
        if (!(await repo.lockShow(c, id))) throw appError('NOT_FOUND', undefined, '演出不存在');
        const before = (await repo.findShow(c, id))!;
        if (input.venueId !== undefined && input.venueId !== before.venueId) {
          if (before.sessionCount > 0)
            throw appError('EDIT_CONFLICT', { field: 'venueId' }, '演出已有场次，不能更换场馆');
          if (!(await repo.venueExists(c, input.venueId)))
            throw appError('VALIDATION_FAILED', { field: 'venueId' }, '场馆不存在');
        }
        await repo.updateShow(c, id, input);
        return { before: auditShape(before), after: auditShape((await repo.findShow(c, id))!) };
      },
      (r) => ({ action: 'show.update', entityType: 'show', entityId: id, ...r }),
    );
    const show = await this.get(id);
    // Session views carry the show's data (refund rules, poster) through the catalog cache.
    this.invalidate(show.sessions.map((s) => s.id));
    return show;
  }

  async uploadPoster(
    body: Readable,
    contentLength: number | undefined,
  ): Promise<{ url: string; bytes: number }> {
    if (contentLength !== undefined && contentLength > this.cfg.posterMaxBytes) {
      throw appError('PAYLOAD_TOO_LARGE', { maxBytes: this.cfg.posterMaxBytes }, '海报图片过大');
    }
    return storePoster(this.db, await readLimited(body, this.cfg.posterMaxBytes));
  }
}
