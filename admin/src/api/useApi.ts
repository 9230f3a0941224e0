import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from './client';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => Promise<void>;
}

/** Loads on mount and whenever `deps` change; `reload` fetches again (after a change, or on a timer). */
export function useApi<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<ApiError>();
  const [loading, setLoading] = useState(true);
  const loader = useRef(load);
  loader.current = load;
  const seq = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      const v = await loader.current();
      if (mine === seq.current) {
        setData(v);
        setError(undefined);
      }
    } catch (e) {
      if (mine === seq.current)
        setError(
          e instanceof ApiError ? e : new ApiError({ code: 'INTERNAL', status: 0, message: String(e) }),
        );
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, []);
  useEffect(() => {
    void reload();
    // Reloads only when the caller's deps change; the loader itself is read through a ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's list is the point
  }, deps);
  return { data, error, loading, reload };
}
