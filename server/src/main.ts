import { loadConfig } from './config';
import { migrateUp } from './db/migrate';
import { missingNodeFlags } from './runtime-flags';
import { startServer, startWorker } from './server';

async function main() {
  const config = loadConfig();
  const applied = await migrateUp(config.mysqlUrl, config.migrateLockTimeoutS);
  const running = config.role === 'worker' ? await startWorker(config) : await startServer(config);
  const missing = missingNodeFlags(process.execArgv, process.env.NODE_OPTIONS);
  if (missing.length > 0)
    running.deps.log.warn(
      { missing },
      'started without the Node.js flags the server is tuned for (src/runtime-flags.ts): it serves, with more garbage collection',
    );
  if ('url' in running)
    running.deps.log.info({ url: running.url, migrationsApplied: applied }, 'showtix server listening');
  else running.deps.log.info({ migrationsApplied: applied }, 'showtix worker running');
  const shutdown = async (signal: string) => {
    running.deps.log.info({ signal }, 'shutting down');
    await running.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
