/**
 * Return codes of the Lua scripts, defined once: the loader injects them into every script as
 * `local RC_<NAME> = <value>`, and inventory/service.ts maps the refusals to API errors.
 */
export enum RC {
  LOCKED = 1,
  REPLAY = 2,
  CONFIRMED = 3,
  RELEASED = 4,
  ALREADY = 5,
  QUEUED = 6,
  PRESALE = 7,
  OPENED = 8,
  ADMITTED = 9,
  LEADING = 10,
  NOT_READY = -1,
  NOT_ON_SALE = -2,
  SEAT_TAKEN = -3,
  SOLD_OUT = -4,
  LIMIT_EXCEEDED = -5,
  IDEMPOTENCY_CONFLICT = -6,
  UNKNOWN_ORDER = -7,
  NOT_OWNER = -8,
  CONFLICT = -9,
  ADMISSION_USED = -10,
  ID_TAKEN = -11,
  NOT_LEADING = -12,
  RATE_LIMITED = -13,
  HOLD_COOLDOWN = -14,
}

/** UPPER_SNAKE names for the Lua prelude: RC.SEAT_TAKEN -> RC_SEAT_TAKEN. */
export function luaPrelude(): string {
  return (
    Object.entries(RC)
      .filter(([, v]) => typeof v === 'number')
      .map(([k, v]) => `local RC_${k} = ${v}`)
      .join('\n') + '\n'
  );
}
