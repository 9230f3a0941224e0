import Router from '@koa/router';
import { X509Certificate } from 'node:crypto';
import type { Context } from 'koa';
import type { Services } from '../services';
import { applyTradeBill, billFile } from '../bill';
import { WxPayError } from '../errors';
import { rfc3339 } from '../time';
import { refundView, transactionView } from '../views';
import { aesGcmEncrypt, randomAlnum } from '../wxcrypto';
import { jsonBody } from './merchant-auth';

function queryParam(ctx: Context, name: string): string | undefined {
  const value = ctx.query[name];
  return Array.isArray(value) ? value[0] : value;
}

/** WeChat Pay v3 merchant API (direct merchant, JSAPI / mini-program payments). */
export function merchantRouter(svc: Services): Router {
  const r = new Router({ prefix: '/v3' });

  r.post('/pay/transactions/jsapi', (ctx) => {
    ctx.body = svc.pay.createJsapi(jsonBody(ctx));
  });

  r.get('/pay/transactions/out-trade-no/:outTradeNo', (ctx) => {
    svc.pay.checkMchid(queryParam(ctx, 'mchid'), 'query');
    ctx.body = transactionView(svc.pay.find('out_trade_no', ctx.params.outTradeNo));
  });

  r.get('/pay/transactions/id/:transactionId', (ctx) => {
    svc.pay.checkMchid(queryParam(ctx, 'mchid'), 'query');
    ctx.body = transactionView(svc.pay.find('transaction_id', ctx.params.transactionId));
  });

  r.post('/pay/transactions/out-trade-no/:outTradeNo/close', (ctx) => {
    svc.pay.close(ctx.params.outTradeNo, jsonBody(ctx));
    ctx.status = 204;
  });

  r.post('/refund/domestic/refunds', (ctx) => {
    ctx.body = refundView(svc.refunds.create(jsonBody(ctx)));
  });

  r.get('/refund/domestic/refunds/:outRefundNo', (ctx) => {
    ctx.body = refundView(svc.refunds.find(ctx.params.outRefundNo));
  });

  r.post('/refund/domestic/refunds/:refundId/apply-abnormal-refund', (ctx) => {
    ctx.body = refundView(svc.refunds.applyAbnormal(ctx.params.refundId, jsonBody(ctx)));
  });

  r.get('/bill/tradebill', (ctx) => {
    const query = {
      bill_date: queryParam(ctx, 'bill_date'),
      bill_type: queryParam(ctx, 'bill_type'),
      tar_type: queryParam(ctx, 'tar_type'),
    };
    // Koa 3's ctx.origin is the Origin header; the download URL must use the host we were reached at.
    ctx.body = applyTradeBill(svc.store, query, `${ctx.protocol}://${ctx.host}`);
  });

  r.get('/billdownload/file', (ctx) => {
    const file = billFile(svc.store, queryParam(ctx, 'token') ?? '', svc.billUrlTtlMs);
    if (!file) throw new WxPayError(400, 'INVALID_REQUEST', '下载链接无效或已过期');
    // Bill files carry no Wechatpay-Signature: the merchant checks hash_value instead.
    ctx.state.unsigned = true;
    ctx.type = file.gzip ? 'application/x-gzip' : 'text/plain';
    ctx.body = file.content;
  });

  r.get('/certificates', (ctx) => {
    const cert = new X509Certificate(svc.keys.platformCertPem);
    const nonce = randomAlnum(12);
    ctx.body = {
      data: [
        {
          serial_no: svc.keys.platformSerial,
          effective_time: rfc3339(Date.parse(cert.validFrom)),
          expire_time: rfc3339(Date.parse(cert.validTo)),
          encrypt_certificate: {
            algorithm: 'AEAD_AES_256_GCM',
            nonce,
            associated_data: 'certificate',
            ciphertext: aesGcmEncrypt(svc.keys.apiV3Key, nonce, 'certificate', svc.keys.platformCertPem),
          },
        },
      ],
    };
  });

  return r;
}
