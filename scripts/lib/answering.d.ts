/**
 * Whether a GET of `url` is answered 2xx within `ms`, asked every `everyMs` (100 ms by default;
 * a refused connection or another status asks again).
 */
export function answersWithin(url: string, ms: number, everyMs?: number): Promise<boolean>;
