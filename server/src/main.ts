import { loadConfig } from './config';
import { migrateUp } from './db/migrate';
import { startServer } from './server';

async function main() {
  const config = loadConfig();
  const applied = await migrateUp(config.mysqlUrl);
  const running = await startServer(config);
  running.deps.log.info({ url: running.url, migrationsApplied: applied }, 'showtix server listening');
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
