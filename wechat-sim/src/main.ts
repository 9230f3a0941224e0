#!/usr/bin/env node
import { startSimulator } from './simulator';
import type { KeyMode } from './signer';

/** CLI: SIM_PORT (3100), SIM_HOST (127.0.0.1), SIM_KEYS_DIR, SIM_KEY_MODE, SIM_NOTIFY_RETRY_SCALE. */
async function main(): Promise<void> {
  const port = Number(process.env.SIM_PORT ?? 3100);
  const keyMode = (process.env.SIM_KEY_MODE ?? 'certificate') as KeyMode;
  if (!['certificate', 'publicKey', 'mixed'].includes(keyMode)) {
    throw new Error(`SIM_KEY_MODE must be certificate, publicKey or mixed (got ${keyMode})`);
  }
  const sim = await startSimulator({
    host: process.env.SIM_HOST ?? '127.0.0.1',
    port,
    keysDir: process.env.SIM_KEYS_DIR || undefined,
    keyMode,
    notifyRetryScale: process.env.SIM_NOTIFY_RETRY_SCALE ? Number(process.env.SIM_NOTIFY_RETRY_SCALE) : 1,
    log: (line) => console.error(`[wechat-sim] ${line}`),
  });
  console.log(
    `[wechat-sim] listening on ${sim.url} (keyMode=${keyMode}, mchid=${sim.keys.mchid}, appid=${sim.keys.appid})`,
  );
  const stop = () => {
    void sim.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(`[wechat-sim] failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
