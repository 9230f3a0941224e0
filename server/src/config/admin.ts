import path from 'node:path';
import { z } from 'zod';

/**
 * Settings of the admin side, read once with the rest of the configuration. In production there
 * is no default password: the first account comes only from ADMIN_USERNAME / ADMIN_PASSWORD.
 */
const int = (def: number) => z.coerce.number().int().positive().default(def);

const AdminEnvSchema = z.object({
  ADMIN_USERNAME: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{3,64}$/)
    .default('admin'),
  ADMIN_PASSWORD: z.string().min(10).max(200).optional(),
  /** An admin session ends after this long without a request... */
  ADMIN_SESSION_IDLE_MIN: int(30),
  /** ...and at the latest this long after login. */
  ADMIN_SESSION_MAX_H: int(12),
  /** Failed logins allowed per username and address within the window, and per address alone. */
  ADMIN_LOGIN_FAILS_MAX: int(5),
  // Per address alone: generous, as an office or a carrier NAT shares one (TRUST_PROXY_HOPS).
  ADMIN_LOGIN_FAILS_PER_IP_MAX: int(100),
  ADMIN_LOGIN_WINDOW_S: int(15 * 60),
  /** Admin requests carry whole venue layouts: a larger JSON limit than the fan API's. */
  ADMIN_BODY_LIMIT_BYTES: int(8 * 1024 * 1024),
  POSTER_MAX_BYTES: int(5 * 1024 * 1024),
  /** Uploaded posters live under <DATA_DIR>/posters. */
  DATA_DIR: z.string().default('.data'),
  /** The built admin page (admin/dist); served under /admin when it exists. */
  ADMIN_DIST_DIR: z.string().optional(),
  /**
   * Serve the admin page only on this host name (e.g. admin.example.com), and the fan's H5 app
   * never there: the two keep their bearer tokens in localStorage, which is per origin.
   */
  ADMIN_HOST: z
    .string()
    .regex(/^[a-z0-9.-]{1,253}$/i)
    .optional(),
});

export interface AdminConfig {
  bootstrapUsername: string;
  /** Undefined in production without ADMIN_PASSWORD: then no account is created. */
  bootstrapPassword: string | undefined;
  /** True when the password is the development default (logged loudly). */
  bootstrapIsDefault: boolean;
  sessionIdleMs: number;
  sessionMaxMs: number;
  loginFailsMax: number;
  loginFailsPerIpMax: number;
  loginWindowS: number;
  bodyLimitBytes: number;
  posterMaxBytes: number;
  dataDir: string;
  distDir: string;
  /** Host name the admin page is served on alone; undefined: any host, under /admin. */
  host: string | undefined;
}

export const DEV_ADMIN_PASSWORD = 'showtix-dev-admin';

export function loadAdminConfig(
  source: NodeJS.ProcessEnv,
  env: 'development' | 'test' | 'production',
): AdminConfig {
  const parsed = AdminEnvSchema.safeParse(source);
  if (!parsed.success) throw new Error(`Invalid admin configuration: ${z.prettifyError(parsed.error)}`);
  const e = parsed.data;
  const useDefault = !e.ADMIN_PASSWORD && env !== 'production';
  return Object.freeze({
    bootstrapUsername: e.ADMIN_USERNAME,
    bootstrapPassword: e.ADMIN_PASSWORD ?? (useDefault ? DEV_ADMIN_PASSWORD : undefined),
    bootstrapIsDefault: useDefault,
    sessionIdleMs: e.ADMIN_SESSION_IDLE_MIN * 60_000,
    sessionMaxMs: e.ADMIN_SESSION_MAX_H * 3_600_000,
    loginFailsMax: e.ADMIN_LOGIN_FAILS_MAX,
    loginFailsPerIpMax: e.ADMIN_LOGIN_FAILS_PER_IP_MAX,
    loginWindowS: e.ADMIN_LOGIN_WINDOW_S,
    bodyLimitBytes: e.ADMIN_BODY_LIMIT_BYTES,
    posterMaxBytes: e.POSTER_MAX_BYTES,
    dataDir: path.resolve(e.DATA_DIR),
    distDir: path.resolve(e.ADMIN_DIST_DIR ?? path.join(__dirname, '../../../admin/dist')),
    host: e.ADMIN_HOST?.toLowerCase(),
  });
}
