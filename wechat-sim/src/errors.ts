/** A WeChat Pay v3 error: HTTP status + {code, message[, detail]}. */
export class WxPayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly detail?: Record<string, unknown>,
  ) {
    super(message);
  }

  toJSON(): Record<string, unknown> {
    return this.detail
      ? { code: this.code, message: this.message, detail: this.detail }
      : { code: this.code, message: this.message };
  }
}

export function paramError(field: string, issue: string): WxPayError {
  return new WxPayError(400, 'PARAM_ERROR', `输入源"/body/${field}"映射到字段"${field}"${issue}`, {
    location: 'body',
    field,
    issue,
  });
}

/** An error of the simulator's own /sim endpoints (not part of any WeChat protocol). */
export class SimError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
