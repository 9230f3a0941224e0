import fs from 'node:fs';
import path from 'node:path';
import { createPrivateKey, createPublicKey, KeyObject, X509Certificate } from 'node:crypto';

/** Non-secret settings and ids that go with a key folder (`config.json`). */
export interface KeyConfig {
  appid: string;
  appSecret: string;
  mchid: string;
  merchantName: string;
  /** APIv3 key: 32 ASCII characters used as the AES-256-GCM key bytes. */
  apiV3Key: string;
  /** Serial of the merchant API certificate (the `serial_no` of Authorization), upper-case hex. */
  merchantSerial: string;
  /** Serial of the platform certificate (`Wechatpay-Serial` in certificate mode). */
  platformSerial: string;
  /** Id of the WeChat Pay public key (`Wechatpay-Serial` in public-key mode). */
  publicKeyId: string;
}

/** Absolute paths of the files in a key folder. */
export interface KeyFiles {
  dir: string;
  configPath: string;
  merchantPrivateKeyPath: string;
  merchantCertPath: string;
  platformPrivateKeyPath: string;
  platformCertPath: string;
  publicKeyPrivatePath: string;
  publicKeyPath: string;
}

export type TestKeys = KeyFiles & KeyConfig;

/** Keys parsed for use by the simulator itself. */
export interface LoadedKeys extends KeyConfig {
  files: KeyFiles;
  merchantPublicKey: KeyObject;
  platformPrivateKey: KeyObject;
  platformCertPem: string;
  publicKeyModePrivateKey: KeyObject;
  publicKeyPem: string;
}

export function keyFiles(dir: string): KeyFiles {
  const abs = path.resolve(dir);
  const f = (name: string) => path.join(abs, name);
  return {
    dir: abs,
    configPath: f('config.json'),
    merchantPrivateKeyPath: f('apiclient_key.pem'),
    merchantCertPath: f('apiclient_cert.pem'),
    platformPrivateKeyPath: f('wechatpay_platform_key.pem'),
    platformCertPath: f('wechatpay_platform_cert.pem'),
    publicKeyPrivatePath: f('pub_key_private.pem'),
    publicKeyPath: f('pub_key.pem'),
  };
}

const CONFIG_FIELDS: Array<keyof KeyConfig> = [
  'appid',
  'appSecret',
  'mchid',
  'merchantName',
  'apiV3Key',
  'merchantSerial',
  'platformSerial',
  'publicKeyId',
];

export function readKeyConfig(dir: string): KeyConfig {
  const raw = JSON.parse(fs.readFileSync(keyFiles(dir).configPath, 'utf8')) as Record<string, unknown>;
  const config = {} as KeyConfig;
  for (const field of CONFIG_FIELDS) {
    const value = raw[field];
    if (typeof value !== 'string' || value === '') {
      throw new Error(`${keyFiles(dir).configPath}: "${field}" must be a non-empty string`);
    }
    config[field] = value;
  }
  if (Buffer.byteLength(config.apiV3Key) !== 32) {
    throw new Error(`${keyFiles(dir).configPath}: apiV3Key must be exactly 32 bytes`);
  }
  return config;
}

/** The committed TEST-ONLY fixtures (see test-keys/README.md). Works from src/ and dist/ alike. */
export const TEST_KEYS_DIR = path.resolve(__dirname, '..', 'test-keys');

export const testKeys: Readonly<TestKeys> = Object.freeze({
  ...keyFiles(TEST_KEYS_DIR),
  ...readKeyConfig(TEST_KEYS_DIR),
});

function certSerial(pem: string, file: string, expected: string): void {
  const serial = new X509Certificate(pem).serialNumber.toUpperCase();
  // A config that disagrees with its certificate would make every signature check fail
  // mysteriously later; refuse to start instead.
  if (serial !== expected.toUpperCase()) {
    throw new Error(`${file}: certificate serial ${serial} does not match config.json (${expected})`);
  }
}

function spkiPem(key: KeyObject): string {
  return key.export({ type: 'spki', format: 'pem' }).toString();
}

export function loadKeys(dir: string = TEST_KEYS_DIR): LoadedKeys {
  const files = keyFiles(dir);
  const config = readKeyConfig(dir);
  const read = (p: string) => fs.readFileSync(p, 'utf8');
  const merchantCertPem = read(files.merchantCertPath);
  const platformCertPem = read(files.platformCertPath);
  certSerial(merchantCertPem, files.merchantCertPath, config.merchantSerial);
  certSerial(platformCertPem, files.platformCertPath, config.platformSerial);
  const publicKeyModePrivateKey = createPrivateKey(read(files.publicKeyPrivatePath));
  const publicKeyPem = spkiPem(createPublicKey(read(files.publicKeyPath)));
  if (spkiPem(createPublicKey(publicKeyModePrivateKey)) !== publicKeyPem) {
    throw new Error(`${files.publicKeyPath} is not the public half of ${files.publicKeyPrivatePath}`);
  }
  return {
    ...config,
    files,
    merchantPublicKey: new X509Certificate(merchantCertPem).publicKey,
    platformPrivateKey: createPrivateKey(read(files.platformPrivateKeyPath)),
    platformCertPem,
    publicKeyModePrivateKey,
    publicKeyPem,
  };
}
