import { useEffect, useState } from 'react';

/**
 * The time now, re-read at every multiple of periodMs (aligned to the clock, so a 20 s QR window
 * and a 1 s countdown both change on their boundaries, and one timer serves a whole page).
 */
export function useTicker(periodMs = 1000, active = true, now: () => number = Date.now): number {
  const [t, setT] = useState(now);
  useEffect(() => {
    if (!active) return undefined;
    let timer: ReturnType<typeof setTimeout>;
    const arm = () => {
      timer = setTimeout(
        () => {
          setT(now());
          arm();
        },
        periodMs - (now() % periodMs),
      );
    };
    setT(now());
    arm();
    return () => clearTimeout(timer);
    // `now` is a clock, not data: re-arming on a new function identity would drift.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [periodMs, active]);
  return t;
}
