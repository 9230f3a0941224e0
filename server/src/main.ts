import { loadConfig } from './config';
import { migrateUp } from './db/migrate';
import { startServer, startWorker } from './server';

async function main() {
  const config = loadConfig();
  const applied = await migrateUp(config.mysqlUrl, config.migrateLockTimeoutS);
  const running = config.role === 'worker' ? await startWorker(config) : await startServer(config);
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
