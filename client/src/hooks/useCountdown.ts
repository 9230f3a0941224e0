import { useEffect, useState } from 'react';

/** Milliseconds left until `target` (0 once passed), ticking every second; undefined target -> 0. */
export function useCountdown(
  target: string | number | null | undefined,
  now: () => number = Date.now,
): number {
  const targetMs = target === null || target === undefined ? undefined : new Date(target).getTime();
  const left = () => (targetMs === undefined ? 0 : Math.max(0, targetMs - now()));
  const [remaining, setRemaining] = useState(left);
  useEffect(() => {
    setRemaining(left());
    if (targetMs === undefined) return undefined;
    const timer = setInterval(() => {
      const r = left();
      setRemaining(r);
      if (r <= 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
    // `left` reads targetMs only; re-arm when the target changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [targetMs]);
  return remaining;
}
