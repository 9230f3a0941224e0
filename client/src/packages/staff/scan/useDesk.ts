import { useCallback, useEffect, useRef, useState, type MutableRefObject } from 'react';
import { errorView, toApiError, type ErrorView } from '../../../services/errors';
import { cue } from '../../../services/feedback';
import {
  admittedHere,
  loadBundle,
  pendingCheckins,
  refreshBundle,
  scanTicket,
  syncPending,
  type ScanInput,
  type ScanView,
  type SyncReport,
} from '../../../services/gate';
import { watchNetwork } from '../../../services/network';
import type { OfflineBundle } from '../../../services/ticket-code';
import { readJson, write } from '../../../services/storage';

/** Where this phone checks tickets: a session of an assigned show, at a named gate. */
export interface DeskSetup {
  showId: string;
  showTitle: string;
  sessionId: string;
  startsAt: string;
  gate: string;
}

const SETUP_KEY = 'showtix.gate.setup';
export const loadSetup = () => readJson<DeskSetup>(SETUP_KEY);
export const saveSetup = (s: DeskSetup) => write(SETUP_KEY, JSON.stringify(s));

/** Fresh offline data while online: the revocation list must keep up with refunds. */
export const BUNDLE_REFRESH_MS = 5 * 60_000;
/** While check-ins wait to be synced, try (and so probe the network) this often. */
export const SYNC_RETRY_MS = 20_000;

export interface Desk {
  online: boolean;
  bundle: OfflineBundle | undefined;
  bundleStored: boolean;
  bundleError: ErrorView | undefined;
  pending: number;
  report: SyncReport | undefined;
  result: ScanView | undefined;
  error: ErrorView | undefined;
  busy: boolean;
  gateCount: number;
  /** This phone's clock minus the server's, measured at the last bundle download. */
  clockSkewMs: number;
  scan: (input: ScanInput) => Promise<ScanView | undefined>;
  sync: () => Promise<void>;
  refresh: () => Promise<void>;
  clearResult: () => void;
  clearError: () => void;
}

type SetOnline = (v: boolean) => void;

/** Whether the network is up: state for the page, a ref for callbacks already running. */
function useOnline() {
  const [online, setOnlineState] = useState(true);
  const onlineRef = useRef(true);
  const setOnline = useCallback((v: boolean) => {
    onlineRef.current = v;
    setOnlineState(v);
  }, []);
  return { online, onlineRef, setOnline };
}

/** The session's offline bundle: kept on the phone, downloaded again by refresh. */
function useBundle(sessionId: string, now: () => number, setOnline: SetOnline) {
  const [bundle, setBundle] = useState<OfflineBundle | undefined>(() => loadBundle(sessionId));
  const bundleRef = useRef(bundle);
  const [bundleStored, setStored] = useState(true);
  const [bundleError, setBundleError] = useState<ErrorView>();
  // Offline checks run on the server's time: this phone's clock, corrected by the difference
  // measured when the bundle was downloaded (a phone minutes off would refuse every code).
  const skewRef = useRef(0);
  const [clockSkewMs, setClockSkew] = useState(0);
  const serverNow = useCallback(() => now() - skewRef.current, [now]);
  const refresh = useCallback(async () => {
    try {
      const r = await refreshBundle(sessionId);
      skewRef.current = now() - Date.parse(r.bundle.generatedAt);
      setClockSkew(skewRef.current);
      bundleRef.current = r.bundle;
      setBundle(r.bundle);
      setStored(r.stored);
      setBundleError(undefined);
      setOnline(true);
    } catch (e) {
      const v = errorView(e);
      if (v.code === 'NETWORK') setOnline(false);
      else setBundleError(v);
    }
  }, [now, sessionId, setOnline]);
  return { bundle, bundleRef, bundleStored, bundleError, clockSkewMs, serverNow, refresh };
}

/** Check-ins admitted offline, waiting to be sent; sync sends them and keeps the report. */
function useSync(now: () => number, setOnline: SetOnline) {
  const [pending, setPending] = useState(() => pendingCheckins().length);
  const [report, setReport] = useState<SyncReport>();
  const sync = useCallback(async () => {
    try {
      const r = await syncPending(now());
      if (r) setReport(r);
      if (r) setOnline(true);
    } catch (e) {
      if (toApiError(e).code === 'NETWORK') setOnline(false);
    } finally {
      setPending(pendingCheckins().length);
    }
  }, [now, setOnline]);
  return { pending, setPending, report, sync };
}

interface ScanDeps {
  setup: DeskSetup;
  onlineRef: MutableRefObject<boolean>;
  setOnline: SetOnline;
  bundleRef: MutableRefObject<OfflineBundle | undefined>;
  serverNow: () => number;
  setPending: (n: number) => void;
}

/** One scan at a time: the verdict (online, or offline against the bundle), the gate's count. */
function useScan(d: ScanDeps) {
  const { sessionId, gate } = d.setup;
  const [result, setResult] = useState<ScanView>();
  const [error, setError] = useState<ErrorView>();
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const localCount = () => Object.values(admittedHere(sessionId)).filter((a) => a.gate === gate).length;
  const [gateCount, setGateCount] = useState(localCount);
  const { onlineRef, setOnline, bundleRef, serverNow, setPending } = d;
  const scan = useCallback(
    async (input: ScanInput) => {
      if (busyRef.current) return undefined;
      busyRef.current = true;
      setBusy(true);
      setError(undefined);
      try {
        const wasOnline = onlineRef.current;
        const v = await scanTicket({
          input,
          gate,
          sessionId,
          online: wasOnline,
          bundle: bundleRef.current,
          nowMs: serverNow,
        });
        if (v.offline && wasOnline) setOnline(false);
        if (v.gateCount !== undefined) setGateCount(v.gateCount);
        else if (v.result === 'admitted') setGateCount((n) => n + 1);
        setPending(pendingCheckins().length);
        setResult(v);
        cue(v.result === 'admitted' ? 'ok' : 'fail');
        return v;
      } catch (e) {
        const v = errorView(e);
        if (v.code === 'NETWORK') setOnline(false);
        setError(v);
        cue('fail');
        return undefined;
      } finally {
        busyRef.current = false;
        setBusy(false);
      }
    },
    [gate, serverNow, sessionId, setOnline, onlineRef, bundleRef, setPending],
  );
  const clearResult = () => setResult(undefined);
  const clearError = () => setError(undefined);
  return { result, error, busy, gateCount, scan, clearResult, clearError };
}

/**
 * The scan desk's state: network, offline bundle (downloaded at start, refreshed while online),
 * queued offline check-ins (synced when the network is back, and retried), the last result.
 */
export function useDesk(setup: DeskSetup, now: () => number = Date.now): Desk {
  const { online, onlineRef, setOnline } = useOnline();
  const b = useBundle(setup.sessionId, now, setOnline);
  const { pending, setPending, report, sync } = useSync(now, setOnline);
  const { bundleRef, serverNow, refresh } = b;
  const s = useScan({ setup, onlineRef, setOnline, bundleRef, serverNow, setPending });

  // The network: back online -> sync what was admitted offline and fetch a fresh bundle.
  useEffect(
    () =>
      watchNetwork((up) => {
        const was = onlineRef.current;
        setOnline(up);
        if (up && !was) {
          void sync();
          void refresh();
        }
      }),
    [refresh, setOnline, sync, onlineRef],
  );

  useEffect(() => {
    void refresh();
    void sync();
    const bundleTimer = setInterval(() => onlineRef.current && void refresh(), BUNDLE_REFRESH_MS);
    const syncTimer = setInterval(() => pendingCheckins().length && void sync(), SYNC_RETRY_MS);
    return () => {
      clearInterval(bundleTimer);
      clearInterval(syncTimer);
    };
  }, [refresh, sync, onlineRef]);

  const { bundle, bundleStored, bundleError, clockSkewMs } = b;
  return { online, bundle, bundleStored, bundleError, pending, report, clockSkewMs, ...s, sync, refresh };
}
