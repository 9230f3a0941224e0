import type { Context, Next } from 'koa';
import type { LoadedKeys } from '../keys';
import type { Services } from '../services';
import type { Signer } from '../signer';
import { WxPayError } from '../errors';
import { nowSeconds } from '../time';
import { parseAuthorization, randomHex, requestMessage, rsaVerify } from '../wxcrypto';

/** WeChat accepts request timestamps up to five minutes away from its clock. */
export const MAX_CLOCK_SKEW_SECONDS = 300;

function signError(message: string): WxPayError {
  return new WxPayError(401, 'SIGN_ERROR', message);
}

/** Checks the merchant's WECHATPAY2-SHA256-RSA2048 Authorization against the raw request. */
export function verifyAuthorization(ctx: Context, keys: LoadedKeys): void {
  const auth = parseAuthorization(ctx.get('Authorization') || undefined);
  if (!auth) throw signError('Http头Authorization值格式错误，请参考《微信支付商户REST API签名规则》');
  const { mchid, nonce_str: nonce, signature, timestamp, serial_no: serial } = auth;
  if (!mchid || !nonce || !signature || !timestamp || !serial) {
    throw signError('Http头Authorization缺少mchid、nonce_str、signature、timestamp或serial_no');
  }
  if (mchid !== keys.mchid) throw signError('Http头Authorization中的mchid与商户不匹配');
  if (serial.toUpperCase() !== keys.merchantSerial.toUpperCase()) {
    throw signError('商户证书序列号有误，请使用签名私钥匹配的证书序列号');
  }
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowSeconds() - Number(timestamp)) > MAX_CLOCK_SKEW_SECONDS) {
    throw signError('Http头Authorization中的timestamp与当前时间相差超过5分钟');
  }
  const message = requestMessage(ctx.method, ctx.originalUrl, timestamp, nonce, ctx.request.rawBody ?? '');
  if (!rsaVerify(keys.merchantPublicKey, message, signature)) throw signError('签名错误，请检查后再试');
}

/** Serialises the body once and signs exactly those bytes (204 signs the empty body). */
function signResponse(ctx: Context, signer: Signer): void {
  let text = '';
  if (ctx.status !== 204 && ctx.body !== undefined && ctx.body !== null) {
    text = typeof ctx.body === 'string' ? ctx.body : JSON.stringify(ctx.body);
    ctx.body = text;
    ctx.type = 'application/json';
  }
  ctx.set(signer.headers(text));
}

/**
 * Everything under /v3: verify the request, apply failNextRequests, turn errors into WeChat's
 * {code, message}, and sign the response (except bill file downloads, which WeChat leaves unsigned).
 */
export function merchantApi(svc: Services) {
  return async (ctx: Context, next: Next): Promise<void> => {
    ctx.set('Request-ID', randomHex(32));
    try {
      verifyAuthorization(ctx, svc.keys);
      const delay = svc.store.faults.apiDelayMs;
      if (delay > 0) await new Promise((r) => setTimeout(r, delay).unref());
      if (svc.store.faults.failNextRequests > 0) {
        svc.store.faults.failNextRequests -= 1;
        throw new WxPayError(500, 'SYSTEM_ERROR', '系统错误');
      }
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new WxPayError(404, 'NOT_FOUND', `无此接口 ${ctx.method} ${ctx.path}`);
      }
    } catch (err) {
      const error = err instanceof WxPayError ? err : new WxPayError(500, 'SYSTEM_ERROR', '系统错误');
      if (!(err instanceof WxPayError))
        svc.log(`merchant API ${ctx.method} ${ctx.path} failed: ${String(err)}`);
      ctx.status = error.status;
      ctx.body = error.toJSON();
      ctx.state.unsigned = false;
    }
    if (!ctx.state.unsigned) signResponse(ctx, svc.signer);
  };
}

/** The /v3 body arrives as text (so a malformed one is a PARAM_ERROR after the signature check). */
export function jsonBody(ctx: Context): unknown {
  const raw = ctx.request.rawBody ?? '';
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw new WxPayError(400, 'PARAM_ERROR', '请求体不是合法的JSON');
  }
}
