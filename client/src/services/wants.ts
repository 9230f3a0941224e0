import { readJson, write } from './storage';

/**
 * 想看: shows the fan marked, kept on this phone only (no account data on the server), newest
 * first and at most WANTS_MAX of them.
 */
const KEY = 'showtix.wants';
export const WANTS_MAX = 100;

export function wantedShows(): string[] {
  const list = readJson<string[]>(KEY);
  return Array.isArray(list) ? list.filter((x) => typeof x === 'string') : [];
}

export function isWanted(showId: string): boolean {
  return wantedShows().includes(showId);
}

/** Marks or unmarks a show; answers whether it is marked now. */
export function toggleWanted(showId: string): boolean {
  const list = wantedShows();
  const on = !list.includes(showId);
  const next = on ? [showId, ...list].slice(0, WANTS_MAX) : list.filter((x) => x !== showId);
  write(KEY, JSON.stringify(next));
  return on;
}
