import type { QueueStatus } from '@showtix/shared-types';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorView, type ErrorView } from '../../services/errors';
import {
  joinQueue,
  loadEntry,
  queueStatus,
  retryDelayMs,
  type QueueEntry,
  type QueueJoin,
} from '../../services/queue';
import { entryPatch, firstLook, persistEntry, STOP, viewOf, type QueueView } from './queueLogic';

export type { QueueView } from './queueLogic';

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

/**
 * The one pending timer of the page (a poll or a retry), and failures backing off: a 429 waits
 * its Retry-After, network trouble backs off, a refusal stops. Nothing runs after unmount.
 */
function useRetryTimer(setError: (e: ErrorView | undefined) => void) {
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const lastPollAfter = useRef(0);
  const failures = useRef(0);
  const alive = useRef(true);
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
    [later, stopTimer, setError],
  );
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      stopTimer();
    };
  }, [stopTimer]);
  return { alive, failures, lastPollAfter, stopTimer, later, fail };
}

type Opts = { ready: boolean; realName: boolean; showId?: string; onAdmitted: (s: QueueStatus) => void };

/** The page's state and the handling of each server answer (saved, shown, polled again or not). */
function useQueueAnswers(sessionId: string, opts: Opts) {
  const [entry, setEntry] = useState(() => loadEntry(sessionId));
  const [status, setStatus] = useState<QueueStatus>();
  const [view, setView] = useState<QueueView>('loading');
  const [error, setError] = useState<ErrorView>();
  const t = useRetryTimer(setError);
  const admittedOnce = useRef(false);
  const onAdmitted = useRef(opts.onAdmitted);
  onAdmitted.current = opts.onAdmitted;
  const { showId } = opts;
  const persist = useCallback(
    (patch: Partial<QueueEntry>, join?: QueueJoin) => {
      const next = persistEntry(sessionId, showId, patch, join);
      setEntry(next);
      return next;
    },
    [sessionId, showId],
  );
  // Declared before use through refs: poll and handle call each other across timers.
  const poll = useRef<() => void>(() => undefined);
  const { alive, failures, lastPollAfter, stopTimer, later } = t;
  const handle = useCallback(
    (s: QueueStatus, join: QueueJoin) => {
      if (!alive.current) return;
      failures.current = 0;
      lastPollAfter.current = s.pollAfterMs;
      setError(undefined);
      setStatus(s);
      const next = viewOf(s, persist(entryPatch(s, loadEntry(sessionId)), join));
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
    [alive, failures, lastPollAfter, later, persist, sessionId, stopTimer],
  );
  const state = { entry, status, view, setView, error, setError };
  return { ...state, t, admittedOnce, persist, poll, handle };
}

/**
 * The waiting room of one session: joins (again, after a restart: the server answers the same
 * place), then polls GET .../queue after the server's pollAfterMs, never sooner; a 429 waits its
 * Retry-After, network trouble backs off. `onAdmitted` runs once with a fresh admission.
 */
export function useQueue(sessionId: string, opts: Opts): QueueState {
  const q = useQueueAnswers(sessionId, opts);
  const { handle, setView, setError, persist } = q;
  const { fail, stopTimer } = q.t;
  const [busy, setBusy] = useState(false);
  // The server lost this fan's place (a turn that ended while the app was closed, a restarted
  // queue): join again, once, with the body this phone joined with.
  const joinAgain = useRef<(join: QueueJoin) => void>(() => undefined);
  const rejoinedLost = useRef(false);
  q.poll.current = () => {
    const join = loadEntry(sessionId)?.join ?? {};
    queueStatus(sessionId).then(
      (s) => {
        if (s.state === 'not_joined' && s.queueEnabled && !rejoinedLost.current) {
          rejoinedLost.current = true;
          return joinAgain.current(join);
        }
        handle(s, join);
      },
      (e) => fail(e, () => q.poll.current()),
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
    [fail, handle, opts.realName, sessionId, stopTimer, setError, setView],
  );
  joinAgain.current = doJoin;
  useEffect(() => {
    if (!opts.ready) return;
    const first = firstLook(loadEntry(sessionId), opts.realName);
    if ('view' in first) setView(first.view);
    else doJoin(first.join);
    // Runs once per session, when its details have arrived.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opts.ready, sessionId]);
  const rejoin = useCallback(() => {
    q.admittedOnce.current = false;
    persist({ firstAhead: undefined, state: undefined, orderNo: undefined, joinedAt: Date.now() });
    doJoin(loadEntry(sessionId)?.join ?? {});
  }, [doJoin, persist, sessionId, q.admittedOnce]);
  const { view, status, entry, error } = q;
  return { view, status, entry, error, busy, join: doJoin, rejoin, dismissError: () => setError(undefined) };
}
