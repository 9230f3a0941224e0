import { paramError } from './errors';

type Json = Record<string, unknown>;

export function asObject(value: unknown, field: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw paramError(field, '必须是JSON对象');
  }
  return value as Json;
}

export function requireString(obj: Json, field: string, path = field, min = 1, max = 256): string {
  const value = obj[field];
  if (value === undefined || value === null || value === '') throw paramError(path, '必填');
  if (typeof value !== 'string') throw paramError(path, '类型错误，应为字符串');
  const len = [...value].length;
  if (len < min || len > max) throw paramError(path, `长度应在${min}到${max}之间`);
  return value;
}

export function optionalString(obj: Json, field: string, max = 256): string | undefined {
  if (obj[field] === undefined || obj[field] === null) return undefined;
  return requireString(obj, field, field, 0, max);
}

export function requirePositiveInt(obj: Json, field: string, path: string): number {
  const value = obj[field];
  if (value === undefined || value === null) throw paramError(path, '必填');
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    throw paramError(path, '类型错误，应为整数(分)');
  if (value < 1) throw paramError(path, '应大于0');
  return value;
}

/** Merchant order / refund numbers: digits, letters and _-*|@ as WeChat allows. */
export function requireTradeNo(obj: Json, field: string, min: number, max: number, extra = ''): string {
  const value = requireString(obj, field, field, min, max);
  const allowed = new RegExp(`^[0-9A-Za-z_\\-*${extra}]+$`);
  if (!allowed.test(value)) throw paramError(field, '包含不允许的字符');
  return value;
}

export function requireUrl(obj: Json, field: string): string {
  const value = requireString(obj, field, field, 1, 255);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw paramError(field, '不是合法的URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw paramError(field, '必须是http(s)地址');
  return value;
}

export function currency(obj: Json, path: string, required: boolean): string {
  const value = obj.currency;
  if (value === undefined && !required) return 'CNY';
  if (value !== 'CNY') throw paramError(path, '目前只支持人民币CNY');
  return value;
}

/** Stable JSON (sorted keys) to compare two requests for idempotency. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Json)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
