import { ERRORS, type ErrorCode } from '@showtix/shared-types';

/**
 * An error with a stable API code. `expose` says whether the message may reach the client;
 * unexpected errors are logged and answered with the generic INTERNAL message.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number = ERRORS[code].status,
    readonly expose: boolean = status < 500,
    message: string = ERRORS[code].message,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/**
 * An expected refusal (SEAT_TAKEN, SOLD_OUT, ...). Built without a stack trace: in a flash sale
 * most answers are refusals, and capturing stacks for them is measurable CPU for nothing.
 */
export function appError(code: ErrorCode, details?: unknown, message?: string): AppError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new AppError(code, ERRORS[code].status, true, message ?? ERRORS[code].message, details);
  } finally {
    Error.stackTraceLimit = limit;
  }
}
