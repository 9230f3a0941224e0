import { useCallback, useEffect, useRef, useState } from 'react';
import { errorView, type ErrorView } from '../services/errors';

export interface Loaded<T> {
  data: T | undefined;
  error: ErrorView | undefined;
  loading: boolean;
  reload: () => void;
}

/** Loads data for a page, keeping the last good data while reloading. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<ErrorView>();
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);
  useEffect(() => {
    let current = true;
    setLoading(true);
    load().then(
      (d) => {
        if (!current || !alive.current) return;
        setData(d);
        setError(undefined);
        setLoading(false);
      },
      (e: unknown) => {
        if (!current || !alive.current) return;
        setError(errorView(e));
        setLoading(false);
      },
    );
    return () => {
      current = false;
    };
    // The caller lists what the load depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload };
}
