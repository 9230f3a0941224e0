import type { QueueStatus } from '@showtix/shared-types';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorView, type ErrorView } from '../../services/errors';
import {
  joinQueue,
  loadEntry,
  queueStatus,
  retryDelayMs,
  saveEntry,
  type QueueEntry,
  type QueueJoin,
} from '../../services/queue';

/**
 * What the queue page shows: the server's states, plus `need_id` (a real-name session waits for
 * the fan's ID before joining), `used` (admitted, but this turn's token has bought its order),
 * `done` (the turn is over and it bought an order: not a turn that ran out) and `loading`.
 */
export type QueueView = QueueStatus['state'] | 'need_id' | 'used' | 'done' | 'loading';

export interface QueueState {
  view: QueueView;
  status: QueueStatus | undefined;
  entry: QueueEntry | undefined;
  error: ErrorView | undefined;
  busy: boolean;
  join: (join: QueueJoin) => void;
  rejoin: () => void;
  dismissError: () => void;
}

/** States after which polling stops until the fan acts. */
const STOP: ReadonlySet<QueueView> = new Set(['sold_out', 'expired', 'done', 'admitted']);

/**
 * The waiting room of one session: joins (again, after a restart: the server answers the same
 * place), then polls GET .../queue after the server's pollAfterMs, never sooner; a 429 waits its
 * Retry-After, network trouble backs off. `onAdmitted` runs once with a fresh admission.
 */
export function useQueue(
  sessionId: string,
  opts: { ready: boolean; realName: boolean; showId?: string; onAdmitted: (s: QueueStatus) => void },
): QueueState {
  const [entry, setEntry] = useState(() => loadEntry(sessionId));
  const [status, setStatus] = useState<QueueStatus>();
  const [view, setView] = useState<QueueView>('loading');
  const [error, setError] = useState<ErrorView>();
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const lastPollAfter = useRef(0);
  const failures = useRef(0);
  const alive = useRef(true);
  const admittedOnce = useRef(false);
  const onAdmitted = useRef(opts.onAdmitted);
  onAdmitted.current = opts.onAdmitted;

  const stopTimer = useCallback(() => {
    if (timer.current !== undefined) clearTimeout(timer.current);
    timer.current = undefined;
  }, []);
  const later = useCallback(
    (ms: number, fn: () => void) => {
      stopTimer();
      timer.current = setTimeout(fn, ms);
    },
    [stopTimer],
  );

  const persist = useCallback(
    (patch: Partial<QueueEntry>, join?: QueueJoin) => {
      const base: QueueEntry = loadEntry(sessionId) ?? {
        sessionId,
        showId: opts.showId,
        join: join ?? {},
        joinedAt: Date.now(),
      };
      const next = { ...base, ...(join ? { join } : {}), ...patch };
      saveEntry(next);
      setEntry(next);
      return next;
    },
    [sessionId, opts.showId],
  );

  // Declared before use through refs: poll and handle call each other across timers.
  const poll = useRef<() => void>(() => undefined);

  const handle = useCallback(
    (s: QueueStatus, join: QueueJoin) => {
      if (!alive.current) return;
      failures.current = 0;
      lastPollAfter.current = s.pollAfterMs;
      setError(undefined);
      setStatus(s);
      const prev = loadEntry(sessionId);
      const patch: Partial<QueueEntry> = { state: s.state };
      if (s.state === 'waiting' && s.ahead !== null && prev?.firstAhead === undefined)
        patch.firstAhead = Math.max(1, s.ahead);
      if (s.admitted && s.admissionToken) {
        patch.admissionToken = s.admissionToken;
        patch.admissionExpiresAt = s.admissionExpiresAt;
      }
      if (s.state === 'expired') {
        patch.firstAhead = undefined;
        patch.admissionToken = undefined;
        patch.admissionExpiresAt = undefined;
      }
      const saved = persist(patch, join);
      let next: QueueView = s.state;
      if (!s.queueEnabled) next = 'admitted';
      else if (s.state === 'admitted' && saved.admissionToken === saved.usedToken) next = 'used';
      else if (s.state === 'expired' && saved.orderNo) next = 'done';
      setView(next);
      if (next === 'admitted') {
        stopTimer();
        if (!admittedOnce.current) {
          admittedOnce.current = true;
          onAdmitted.current(s);
        }
        return;
      }
      if (STOP.has(next)) return stopTimer();
      later(s.pollAfterMs, () => poll.current());
    },
    [later, persist, sessionId, stopTimer],
  );

  const fail = useCallback(
    (err: unknown, retry: () => void) => {
      if (!alive.current) return;
      const v = errorView(err);
      failures.current += 1;
      setError(v);
      const wait = retryDelayMs(v, lastPollAfter.current, failures.current);
      if (wait === undefined) return stopTimer();
      later(wait, retry);
    },
    [later, stopTimer],
  );

  // The server lost this fan's place (a turn that ended while the app was closed, a restarted
  // queue): join again, once, with the body this phone joined with.
  const joinAgain = useRef<(join: QueueJoin) => void>(() => undefined);
  const rejoinedLost = useRef(false);

  poll.current = () => {
    const join = loadEntry(sessionId)?.join ?? {};
    queueStatus(sessionId).then(
      (s) => {
        if (s.state === 'not_joined' && s.queueEnabled && !rejoinedLost.current) {
          rejoinedLost.current = true;
          return joinAgain.current(join);
        }
        handle(s, join);
      },
      (e) => fail(e, () => poll.current()),
    );
  };

  const doJoin = useCallback(
    (join: QueueJoin) => {
      stopTimer();
      setBusy(true);
      setError(undefined);
      const attempt = () =>
        joinQueue(sessionId, join).then(
          (s) => {
            setBusy(false);
            handle(s, join);
          },
          (e) => {
            setBusy(false);
            // Refused (e.g. this ID queues for another account): ask for another ID.
            const v = errorView(e);
            if (v.remedy === 'fix_input' && opts.realName) setView('need_id');
            fail(e, attempt);
          },
        );
      void attempt();
    },
    [fail, handle, opts.realName, sessionId, stopTimer],
  );

  joinAgain.current = doJoin;

  // First look, once the session is known: join again where this phone joined before (the
  // server answers the same place), show a finished turn as it ended, or ask for an ID.
  useEffect(() => {
    if (!opts.ready) return;
    const e = loadEntry(sessionId);
    const over =
      e?.state === 'admitted' &&
      e.admissionExpiresAt !== undefined &&
      new Date(e.admissionExpiresAt).getTime() <= Date.now();
    // (A session sold out last time is asked again: returned tickets may have reopened it.)
    if (e && (e.state === 'expired' || over)) setView(e.orderNo ? 'done' : 'expired');
    else if (e) doJoin(e.join);
    else if (opts.realName) setView('need_id');
    else doJoin({});
    // Runs once per session, when its details have arrived.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opts.ready, sessionId]);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      stopTimer();
    };
  }, [stopTimer]);

  const rejoin = useCallback(() => {
    admittedOnce.current = false;
    persist({ firstAhead: undefined, state: undefined, orderNo: undefined, joinedAt: Date.now() });
    doJoin(loadEntry(sessionId)?.join ?? {});
  }, [doJoin, persist, sessionId]);

  return {
    view,
    status,
    entry,
    error,
    busy,
    join: doJoin,
    rejoin,
    dismissError: () => setError(undefined),
  };
}
