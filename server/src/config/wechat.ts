import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { NoticeKind } from '@showtix/shared-types';
import { loadNoticeTemplates } from './notice-templates';

/**
 * WeChat settings. In development and tests they default to the simulator and its TEST-ONLY
 * keys (wechat-sim/test-keys); in production every value must be given explicitly, so going
 * live is configuration only: real base URLs, the merchant's keys, the platform certificate
 * and/or the WeChat Pay public key.
 */
export interface WechatConfig {
  appid: string;
  appSecret: string;
  mchid: string;
  merchantSerial: string;
  merchantKeyPath: string;
  merchantCertPath: string;
  apiV3Key: string;
  /** Platform certificates (certificate mode); their serials come from the files. */
  platformCertPaths: string[];
  /** WeChat Pay public key (public-key mode) and its id, PUB_KEY_ID_... */
  payPublicKeyPath: string | null;
  payPublicKeyId: string | null;
  /** https://api.weixin.qq.com (login, access token, subscribe messages). */
  apiBase: string;
  /** https://api.mch.weixin.qq.com (WeChat Pay v3). */
  payApiBase: string;
  /** Public base URL of this server, for notify_url. */
  publicBaseUrl: string;
  /** H5 stand-in for wx.requestPayment (the simulator's cashier); null in production. */
  cashierUrl: string | null;
  /**
   * The merchant's WeChat Pay rate in basis points (60 = 0.60%, the bill's 费率): settlement reports
   * charge it per payment and give it back per refund, rounded to the fen per line as the bill does.
   */
  payFeeRateBp: number;
  /** Subscribe-message template id of each notice kind (config/notice-templates.ts). */
  templates: Record<NoticeKind, string>;
}

const SIM_KEYS = path.resolve(__dirname, '../../../wechat-sim/test-keys');

const Env = z.object({
  WECHAT_SIM_KEYS_DIR: z.string().optional(),
  WECHAT_APPID: z.string().optional(),
  WECHAT_APP_SECRET: z.string().optional(),
  WECHAT_MCHID: z.string().optional(),
  WECHAT_MCH_SERIAL: z.string().optional(),
  WECHAT_MCH_KEY_PATH: z.string().optional(),
  WECHAT_MCH_CERT_PATH: z.string().optional(),
  WECHAT_APIV3_KEY: z.string().length(32).optional(),
  WECHAT_PLATFORM_CERT_PATHS: z.string().optional(),
  WECHAT_PAY_PUBLIC_KEY_PATH: z.string().optional(),
  WECHAT_PAY_PUBLIC_KEY_ID: z.string().optional(),
  WECHAT_API_BASE: z.string().url().optional(),
  WECHAT_PAY_API_BASE: z.string().url().optional(),
  PUBLIC_BASE_URL: z.string().url().optional(),
  WECHAT_CASHIER_URL: z.string().optional(),
  WECHAT_PAY_FEE_RATE_BP: z.coerce.number().int().min(0).max(1_000).default(60),
  /** The AppID the mini-program is built with (the client's build setting), when known here. */
  TARO_APP_ID: z.string().optional(),
});

/** Settings read from a simulator key folder (config.json + PEM files). */
function fromSimKeys(dir: string) {
  const c = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')) as Record<string, string>;
  return {
    appid: c.appid!,
    appSecret: c.appSecret!,
    mchid: c.mchid!,
    merchantSerial: c.merchantSerial!,
    merchantKeyPath: path.join(dir, 'apiclient_key.pem'),
    merchantCertPath: path.join(dir, 'apiclient_cert.pem'),
    apiV3Key: c.apiV3Key!,
    platformCertPaths: [path.join(dir, 'wechatpay_platform_cert.pem')],
    payPublicKeyPath: path.join(dir, 'pub_key.pem'),
    payPublicKeyId: c.publicKeyId!,
  };
}

/** Whether a configured file is one of the simulator's TEST-ONLY keys. */
function isSimKeyFile(file: string | undefined): boolean {
  if (!file) return false;
  const rel = path.relative(SIM_KEYS, path.resolve(file));
  return !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** The simulator's public API v3 key, to refuse it outside development (undefined if absent). */
function simApiV3Key(): string | undefined {
  try {
    return fromSimKeys(SIM_KEYS).apiV3Key;
  } catch {
    return undefined;
  }
}

/**
 * Outside NODE_ENV=development/test every value is required, the simulator's keys are refused
 * wherever they are pointed at, and PUBLIC_BASE_URL (where WeChat Pay sends its notifications)
 * must be a public https address. Each problem is added to `o.problems`, not thrown alone.
 */
export function loadWechatConfig(
  source: NodeJS.ProcessEnv,
  o: { dev: boolean; port: number; problems: string[] },
): WechatConfig {
  const e = Env.parse(source);
  const { dev, problems } = o;
  // WeChat refuses the logins and payments of a mini-program whose AppID is not the server's.
  if (e.TARO_APP_ID && e.WECHAT_APPID && e.TARO_APP_ID !== e.WECHAT_APPID)
    problems.push(
      `TARO_APP_ID (${e.TARO_APP_ID}, the mini-program's AppID) differs from WECHAT_APPID (${e.WECHAT_APPID})`,
    );
  if (!dev && e.WECHAT_SIM_KEYS_DIR)
    problems.push("WECHAT_SIM_KEYS_DIR: the simulator's keys are for NODE_ENV=development or test only");
  const simDir = dev ? (e.WECHAT_SIM_KEYS_DIR ?? SIM_KEYS) : undefined;
  const sim = simDir ? fromSimKeys(simDir) : undefined;
  const simBase = dev ? 'http://127.0.0.1:3100' : undefined;
  const need = <T>(v: T | undefined, name: string, fallback: T): T => {
    if (v !== undefined && v !== '') return v;
    problems.push(`${name}: required (no simulator default outside NODE_ENV=development or test)`);
    return fallback;
  };
  const platform = e.WECHAT_PLATFORM_CERT_PATHS?.split(',').filter(Boolean) ?? sim?.platformCertPaths ?? [];
  const publicKeyPath = e.WECHAT_PAY_PUBLIC_KEY_PATH ?? sim?.payPublicKeyPath ?? null;
  if (platform.length === 0 && !publicKeyPath) {
    problems.push('WECHAT_PLATFORM_CERT_PATHS or WECHAT_PAY_PUBLIC_KEY_PATH: required to verify WeChat Pay');
  }
  const c: WechatConfig = {
    appid: need(e.WECHAT_APPID ?? sim?.appid, 'WECHAT_APPID', ''),
    appSecret: need(e.WECHAT_APP_SECRET ?? sim?.appSecret, 'WECHAT_APP_SECRET', ''),
    mchid: need(e.WECHAT_MCHID ?? sim?.mchid, 'WECHAT_MCHID', ''),
    merchantSerial: need(e.WECHAT_MCH_SERIAL ?? sim?.merchantSerial, 'WECHAT_MCH_SERIAL', '').toUpperCase(),
    merchantKeyPath: need(e.WECHAT_MCH_KEY_PATH ?? sim?.merchantKeyPath, 'WECHAT_MCH_KEY_PATH', ''),
    merchantCertPath: need(e.WECHAT_MCH_CERT_PATH ?? sim?.merchantCertPath, 'WECHAT_MCH_CERT_PATH', ''),
    apiV3Key: need(e.WECHAT_APIV3_KEY ?? sim?.apiV3Key, 'WECHAT_APIV3_KEY', ''),
    platformCertPaths: platform,
    payPublicKeyPath: publicKeyPath,
    payPublicKeyId: publicKeyPath
      ? need(e.WECHAT_PAY_PUBLIC_KEY_ID ?? sim?.payPublicKeyId, 'WECHAT_PAY_PUBLIC_KEY_ID', '')
      : null,
    apiBase: need(e.WECHAT_API_BASE ?? simBase, 'WECHAT_API_BASE', ''),
    payApiBase: need(e.WECHAT_PAY_API_BASE ?? simBase, 'WECHAT_PAY_API_BASE', ''),
    publicBaseUrl: e.PUBLIC_BASE_URL ?? `http://127.0.0.1:${o.port}`,
    cashierUrl: e.WECHAT_CASHIER_URL ?? (simBase ? `${simBase}/sim/cashier` : null),
    payFeeRateBp: e.WECHAT_PAY_FEE_RATE_BP,
    templates: loadNoticeTemplates(source, o),
  };
  if (!dev) {
    if (!e.PUBLIC_BASE_URL || new URL(e.PUBLIC_BASE_URL).protocol !== 'https:')
      problems.push(
        'PUBLIC_BASE_URL: required, a public https:// address (WeChat Pay sends its notifications there)',
      );
    const simFiles = [c.merchantKeyPath, c.merchantCertPath, c.payPublicKeyPath ?? '', ...platform];
    if (simFiles.some(isSimKeyFile) || (c.apiV3Key !== '' && c.apiV3Key === simApiV3Key()))
      problems.push(
        "WECHAT_*: the simulator's TEST-ONLY keys (wechat-sim/test-keys) are refused outside development",
      );
  }
  return c;
}
