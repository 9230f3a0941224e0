import type { AdminLiveSession } from '@showtix/shared-types';

const LAST_KEY = 'showtix-admin-dashboard-session';

export const lastChosen = {
  get: (): string | null => localStorage.getItem(LAST_KEY),
  set: (id: string) => localStorage.setItem(LAST_KEY, id),
};

/**
 * The session the dashboard opens on (walk-through #11: it opened on an arbitrary one): the
 * last one chosen while it is still live, else the next to start, else the latest started.
 */
export function defaultSession(
  items: AdminLiveSession[],
  nowMs: number,
  last: string | null,
): string | undefined {
  if (last && items.some((s) => s.id === last)) return last;
  const byStart = [...items].sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt));
  return (byStart.find((s) => Date.parse(s.startsAt) >= nowMs) ?? byStart.at(-1))?.id;
}
