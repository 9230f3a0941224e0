export type RefundOutcome = 'SUCCESS' | 'ABNORMAL' | 'CLOSED';

/** Fault switches (all off by default). See README "Faults". */
export interface Faults {
  /** Send every notification this many times, concurrently (1 = normal). */
  duplicate: number;
  /** Wait this long before the first delivery of each notification. */
  delayMs: number;
  /** Never deliver notifications (the payment or refund itself still happens). */
  drop: boolean;
  /** Hold notifications and deliver each batch of this size in reverse order (0 = off). */
  outOfOrder: number;
  /** Add this many fen to amount.total / payer_total in notifications (0 = off). */
  wrongAmount: number;
  /** Before each notification, send a probe whose signature starts with WECHATPAY/SIGNTEST/. */
  signtest: boolean;
  /** Final state of refunds created while set. */
  refundOutcome: RefundOutcome;
  /** Refund requests answer 403 NOT_ENOUGH (merchant balance too low). */
  refundNotEnough: boolean;
  /** The next n merchant API calls answer 500 SYSTEM_ERROR. */
  failNextRequests: number;
  /** Every merchant API call answers this many ms late (a slow WeChat Pay). */
  apiDelayMs: number;
  /** Subscribe messages answer 43101 (user refused the subscription). */
  subscribeRefused: boolean;
  /** The fan's answer in /sim/subscribe when the request gives none (the H5 stand-in gives none). */
  subscribeAnswer: 'accept' | 'reject' | 'ban' | 'filter';
  /** Payments made while set are taken in this currency (e.g. USD) instead of the order's ('' = off). */
  payCurrency: string;
}

export type FaultInput = Partial<Omit<Faults, 'outOfOrder' | 'wrongAmount'>> & {
  outOfOrder?: boolean | number;
  wrongAmount?: boolean | number;
};

export class FaultError extends Error {}

export function defaultFaults(): Faults {
  return {
    duplicate: 1,
    delayMs: 0,
    drop: false,
    outOfOrder: 0,
    wrongAmount: 0,
    signtest: false,
    refundOutcome: 'SUCCESS',
    refundNotEnough: false,
    failNextRequests: 0,
    apiDelayMs: 0,
    subscribeRefused: false,
    subscribeAnswer: 'accept',
    payCurrency: '',
  };
}

function nonNegativeInt(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new FaultError(`${name} must be a non-negative integer`);
  }
  return value;
}

function bool(name: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new FaultError(`${name} must be a boolean`);
  return value;
}

/** true means "on with the usual setting" for the two numeric switches that also read as flags. */
function flagOrInt(name: string, value: unknown, whenTrue: number): number {
  if (value === true) return whenTrue;
  if (value === false) return 0;
  return nonNegativeInt(name, value);
}

type Setter = (f: Faults, v: unknown) => void;

const SETTERS: Record<keyof Faults, Setter> = {
  duplicate: (f, v) => {
    f.duplicate = Math.max(1, nonNegativeInt('duplicate', v));
  },
  delayMs: (f, v) => {
    f.delayMs = nonNegativeInt('delayMs', v);
  },
  drop: (f, v) => {
    f.drop = bool('drop', v);
  },
  outOfOrder: (f, v) => {
    const n = flagOrInt('outOfOrder', v, 2);
    if (n === 1) throw new FaultError('outOfOrder batch size must be 0 (off) or at least 2');
    f.outOfOrder = n;
  },
  wrongAmount: (f, v) => {
    f.wrongAmount = flagOrInt('wrongAmount', v, 1);
  },
  signtest: (f, v) => {
    f.signtest = bool('signtest', v);
  },
  refundOutcome: (f, v) => {
    if (v !== 'SUCCESS' && v !== 'ABNORMAL' && v !== 'CLOSED') {
      throw new FaultError('refundOutcome must be SUCCESS, ABNORMAL or CLOSED');
    }
    f.refundOutcome = v;
  },
  refundNotEnough: (f, v) => {
    f.refundNotEnough = bool('refundNotEnough', v);
  },
  failNextRequests: (f, v) => {
    f.failNextRequests = nonNegativeInt('failNextRequests', v);
  },
  apiDelayMs: (f, v) => {
    f.apiDelayMs = nonNegativeInt('apiDelayMs', v);
  },
  subscribeRefused: (f, v) => {
    f.subscribeRefused = bool('subscribeRefused', v);
  },
  subscribeAnswer: (f, v) => {
    if (v !== 'accept' && v !== 'reject' && v !== 'ban' && v !== 'filter')
      throw new FaultError('subscribeAnswer must be accept, reject, ban or filter');
    f.subscribeAnswer = v;
  },
  payCurrency: (f, v) => {
    if (typeof v !== 'string' || !/^([A-Z]{3})?$/.test(v))
      throw new FaultError('payCurrency must be a 3-letter currency code or ""');
    f.payCurrency = v;
  },
};

/** Returns a new Faults with input applied; throws FaultError (nothing applied) on a bad value. */
export function mergeFaults(current: Faults, input: unknown): Faults {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new FaultError('faults must be a JSON object');
  }
  const next = { ...current };
  for (const [key, value] of Object.entries(input)) {
    const setter = SETTERS[key as keyof Faults];
    if (!setter) throw new FaultError(`unknown fault "${key}"`);
    setter(next, value);
  }
  return next;
}
