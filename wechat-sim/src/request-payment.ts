import type { LoadedKeys } from './keys';
import { SimError } from './errors';
import { rsaVerify } from './wxcrypto';

/**
 * What a mini-program passes to wx.requestPayment (JSAPI, API v3), plus the AppID of the
 * mini-program it runs in: WeChat knows that one itself; here it defaults to the simulator's app.
 */
export interface RequestPaymentParams {
  appId?: string;
  timeStamp: string;
  nonceStr: string;
  package: string;
  signType: string;
  paySign: string;
}

/** The message the merchant signs for wx.requestPayment (WeChat Pay v3 JSAPI 调起支付签名). */
export function paySignMessage(p: { appId: string; timeStamp: string; nonceStr: string; package: string }) {
  return `${p.appId}\n${p.timeStamp}\n${p.nonceStr}\n${p.package}\n`;
}

const FIELDS = ['timeStamp', 'nonceStr', 'package', 'signType', 'paySign'] as const;

function paramFail(field: string, issue: string): SimError {
  return new SimError(400, 'PARAM_ERROR', `requestPayment:fail parameter error: parameter.${field} ${issue}`);
}

/**
 * Checks the shape as wx.requestPayment does (every field a non-empty string; timeStamp is
 * seconds as a string, not a number) and returns the prepay_id carried in `package`.
 */
export function parseRequestPayment(raw: unknown): { params: RequestPaymentParams; prepayId: string } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw paramFail('object', 'should be Object (the wx.requestPayment parameters)');
  }
  const input = raw as Record<string, unknown>;
  for (const field of FIELDS) {
    const value = input[field];
    if (typeof value !== 'string') {
      throw paramFail(
        field,
        `should be String instead of ${value === undefined ? 'Undefined' : typeof value}`,
      );
    }
    if (value === '') throw paramFail(field, 'should not be empty');
  }
  if (input.appId !== undefined && (typeof input.appId !== 'string' || input.appId === '')) {
    throw paramFail('appId', 'should be a non-empty String');
  }
  const params = input as unknown as RequestPaymentParams;
  if (!/^\d{1,12}$/.test(params.timeStamp)) throw paramFail('timeStamp', 'should be seconds since 1970');
  if (params.nonceStr.length > 32) throw paramFail('nonceStr', 'should be at most 32 characters');
  const match = /^prepay_id=(\S+)$/.exec(params.package);
  if (!match) throw paramFail('package', 'should be prepay_id=<prepay_id>');
  return { params, prepayId: match[1] };
}

/**
 * What WeChat checks before it shows its cashier: signType RSA, the app is the one the prepay
 * was made for, and paySign verifies under the merchant's API certificate over
 * `appId\ntimeStamp\nnonceStr\npackage\n` with that app's AppID.
 */
export function verifyRequestPayment(
  params: RequestPaymentParams,
  order: { appid: string },
  keys: LoadedKeys,
): void {
  if (params.signType !== 'RSA') {
    throw new SimError(400, 'SIGN_TYPE_ERROR', 'requestPayment:fail signType 必须为 RSA（微信支付 APIv3）');
  }
  const appId = params.appId ?? keys.appid;
  if (appId !== order.appid) {
    throw new SimError(
      403,
      'APPID_MISMATCH',
      `requestPayment:fail 当前小程序 ${appId} 与下单的 appid 不一致`,
    );
  }
  if (!rsaVerify(keys.merchantPublicKey, paySignMessage({ ...params, appId }), params.paySign)) {
    throw new SimError(401, 'SIGN_ERROR', 'requestPayment:fail 支付验证签名失败');
  }
}
