/** An error answer of WeChat Pay (HTTP status, WeChat's code), thrown by WechatPay. */
export class WechatPayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`WeChat Pay ${status} ${code}: ${message}`);
  }
}
