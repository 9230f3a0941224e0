import type { ShowCategory, ShowSummary } from '@showtix/shared-types';
import { SHOW_CATEGORIES } from '../../services/shared';

/** On-sale shows first, then upcoming ones by sale start, then the rest. */
export function sortShows(shows: ShowSummary[]): ShowSummary[] {
  const rank = { on_sale: 0, presale: 1, sold_out: 2, ended: 3, cancelled: 4 } as const;
  return [...shows].sort(
    (a, b) =>
      rank[a.status] - rank[b.status] ||
      (a.nextSaleStartsAt ?? a.firstStartsAt ?? '').localeCompare(
        b.nextSaleStartsAt ?? b.firstStartsAt ?? '',
      ),
  );
}

export interface FeedFilter {
  /** Words typed in the search box: each must appear in the title, venue or city. */
  query: string;
  /** '' is every city. */
  city: string;
  /** '' is every category. */
  category: ShowCategory | '';
}

/**
 * Shows a fan can still go to: ended and cancelled ones leave the feed (their pages stay
 * reachable by link, and a cancelled show's buyers hear of it by notice and in their orders).
 */
const live = (s: ShowSummary) => s.status !== 'ended' && s.status !== 'cancelled';

/** The cities of the shows still in the feed, most shows first, for the city chips. */
export function feedCities(shows: ShowSummary[]): string[] {
  const count = new Map<string, number>();
  for (const s of shows.filter(live)) if (s.city) count.set(s.city, (count.get(s.city) ?? 0) + 1);
  return [...count.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([c]) => c);
}

/** The categories of the shows still in the feed, in the fixed order, for the category chips. */
export function feedCategories(shows: ShowSummary[]): ShowCategory[] {
  const present = new Set(shows.filter(live).map((s) => s.category));
  return SHOW_CATEGORIES.filter((c) => present.has(c));
}

/** The home feed: live shows matching the search, city and category, on-sale first. */
export function feedShows(shows: ShowSummary[], f: FeedFilter): ShowSummary[] {
  const words = f.query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return sortShows(
    shows.filter((s) => {
      if (!live(s) || (f.city && s.city !== f.city) || (f.category && s.category !== f.category))
        return false;
      const text = `${s.title} ${s.venueName} ${s.city}`.toLowerCase();
      return words.every((w) => text.includes(w));
    }),
  );
}
