import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from './app';
import { BILL_URL_TTL_MS } from './bill';
import { defaultFaults, Faults, FaultInput, mergeFaults } from './faults';
import { Poster } from './http-post';
import { loadKeys, LoadedKeys, TEST_KEYS_DIR } from './keys';
import { LoginService } from './login-service';
import { Notifier } from './notifier';
import { PayResult, PayService } from './pay-service';
import { RawNotificationOptions, RawNotificationResult, RawNotifier } from './raw-notify';
import { RefundService } from './refund-service';
import type { RequestPaymentParams } from './request-payment';
import type { Services } from './services';
import { KeyMode, Signer } from './signer';
import { NotificationRecord, Store, SubscribeMessage } from './store';
import { DEFAULT_TEMPLATES, SimTemplate, SubscribeAnswer, SubscribeService } from './subscribe-service';
import { TimerSet } from './timers';
import { refundView, stateDump, transactionView } from './views';
import { applyFaults } from './routes/sim';

export interface SimulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a random free port. */
  port?: number;
  /** Folder with config.json and the PEM files; default the committed TEST-ONLY test-keys/. */
  keysDir?: string;
  /** Multiplies WeChat's notification retry delays (tests use e.g. 0.001). Default 1. */
  notifyRetryScale?: number;
  /** Lifetime of wx.login codes. Default 300000 (5 minutes, as WeChat). */
  codeTtlMs?: number;
  /** Which key signs responses and notifications. Default 'certificate'. */
  keyMode?: KeyMode;
  /** Time from a refund's acceptance to its outcome. Default 1000. */
  refundDelayMs?: number;
  /** How long a notification waits for the merchant's answer. Default 5000 (as WeChat). */
  notifyTimeoutMs?: number;
  /** Diagnostics sink (default: silent). */
  log?: (line: string) => void;
  /** How long a trade bill's download_url stays valid. Default 300000 (5 minutes, as WeChat). */
  billUrlTtlMs?: number;
  /** Subscribe-message templates of the mini-program. Default DEFAULT_TEMPLATES (TPL_PAID, ...). */
  templates?: SimTemplate[];
}

export interface Simulator {
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly keyMode: KeyMode;
  readonly keys: LoadedKeys;
  /** Stops the server, aborts deliveries in flight and cancels every pending timer. */
  close(): Promise<void>;
  setFaults(input: FaultInput): Faults;
  resetFaults(): Faults;
  faults(): Faults;
  /** What wx.login returns to that user (a fresh openid when omitted). */
  login(openid?: string, unionid?: string): { code: string; openid: string };
  /**
   * The user confirms a wx.requestPayment with these parameters (as the server built them), like
   * POST /sim/pay. Throws SimError when WeChat would refuse them or the order cannot be paid.
   */
  pay(params: RequestPaymentParams): PayResult;
  notifications(): NotificationRecord[];
  messages(): SubscribeMessage[];
  /**
   * The fan answers wx.requestSubscribeMessage({tmplIds}) (each 'accept' allows one message of
   * that template), like POST /sim/subscribe. Answers 'accept' unless told otherwise.
   */
  subscribe(
    openid: string,
    tmplIds: string[],
    answers?: Record<string, SubscribeAnswer>,
  ): Record<string, string>;
  /** One-time sends left for that fan and template. */
  consents(openid: string, templateId: string): number;
  orders(): Array<Record<string, unknown>>;
  refunds(): Array<Record<string, unknown>>;
  order(outTradeNo: string): Record<string, unknown> | undefined;
  refund(outRefundNo: string): Record<string, unknown> | undefined;
  state(): ReturnType<typeof stateDump>;
  sendRawNotification(opts: RawNotificationOptions): Promise<RawNotificationResult>;
  /** Delivers notifications held by the outOfOrder fault now (newest first). */
  flushNotifications(): Promise<void>;
  /** Number of scheduled retries / refund completions / delays not yet run (0 after close()). */
  pendingTimers(): number;
  /** Polls fn every 10 ms until it returns a truthy value; rejects after timeoutMs. */
  waitFor<T>(fn: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
}

function buildServices(opts: SimulatorOptions, timers: TimerSet, poster: Poster): Services {
  const keys = loadKeys(opts.keysDir ?? TEST_KEYS_DIR);
  const store = new Store(defaultFaults());
  const signer = new Signer(keys, opts.keyMode ?? 'certificate');
  const login = new LoginService(store, keys, opts.codeTtlMs ?? 300_000);
  const notifier = new Notifier({
    store,
    signer,
    keys,
    timers,
    poster,
    retryScale: opts.notifyRetryScale ?? 1,
    timeoutMs: opts.notifyTimeoutMs ?? 5000,
  });
  return {
    store,
    keys,
    signer,
    notifier,
    raw: new RawNotifier(store, notifier, keys.mchid),
    pay: new PayService(store, keys, notifier),
    refunds: new RefundService(store, notifier, timers, opts.refundDelayMs ?? 1000),
    login,
    subscribe: new SubscribeService(store, opts.templates ?? DEFAULT_TEMPLATES, (t) => login.checkToken(t)),
    log: opts.log ?? (() => undefined),
    billUrlTtlMs: opts.billUrlTtlMs ?? BILL_URL_TTL_MS,
  };
}

function listen(server: http.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const timers = new TimerSet();
  const poster = new Poster();
  const svc = buildServices(opts, timers, poster);
  const server = http.createServer(buildApp(svc).callback());
  const host = opts.host ?? '127.0.0.1';
  const port = await listen(server, host, opts.port ?? 0);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return simulatorHandle(
    svc,
    server,
    timers,
    poster,
    `http://${urlHost}:${port}`,
    port,
    opts.keyMode ?? 'certificate',
  );
}

function simulatorHandle(
  svc: Services,
  server: http.Server,
  timers: TimerSet,
  poster: Poster,
  url: string,
  port: number,
  keyMode: KeyMode,
): Simulator {
  const { store } = svc;
  let closing: Promise<void> | undefined;
  const updateFaults = (next: Faults): Faults => applyFaults(svc, next);
  return {
    url,
    port,
    keyMode,
    keys: svc.keys,
    close() {
      closing ??= new Promise<void>((resolve) => {
        timers.clearAll();
        poster.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
    setFaults: (input) => updateFaults(mergeFaults(store.faults, input)),
    resetFaults: () => updateFaults(defaultFaults()),
    faults: () => store.faults,
    login: (openid, unionid) => svc.login.issueCode(openid, unionid),
    pay: (params) => svc.pay.pay(params),
    notifications: () => store.notifications,
    messages: () => store.messages,
    subscribe: (openid, tmplIds, answers) => svc.subscribe.request(openid, tmplIds, answers),
    consents: (openid, templateId) => svc.subscribe.remaining(openid, templateId),
    orders: () => stateDump(store).orders,
    refunds: () => [...store.refunds.values()].map(refundView),
    order: (no) => {
      const o = store.orders.get(no);
      return o && transactionView(o);
    },
    refund: (no) => {
      const r = store.refunds.get(no);
      return r && refundView(r);
    },
    state: () => stateDump(store),
    sendRawNotification: (o) => svc.raw.send(o),
    flushNotifications: () => svc.notifier.flush(),
    pendingTimers: () => timers.size,
    waitFor: (fn, timeoutMs = 5000) => waitFor(fn, timeoutMs),
  };
}

async function waitFor<T>(fn: () => T | undefined | null | false, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waitFor: condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
