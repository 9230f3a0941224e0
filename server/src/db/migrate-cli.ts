import { loadConfig } from '../config';
import { migrateDownAll, migrateUp } from './migrate';

async function main() {
  const config = loadConfig();
  const down = process.argv.includes('--down');
  const names = down ? await migrateDownAll(config.mysqlUrl) : await migrateUp(config.mysqlUrl);
  console.log(
    `${down ? 'reverted' : 'applied'} ${names.length} migration(s)${names.length ? ': ' + names.join(', ') : ''}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
