import { closeDeps, createDeps } from '../wiring';
import { loadConfig } from '../config';
import { migrateUp } from '../db/migrate';
import { seedDemo } from './demo';

async function main() {
  const config = loadConfig();
  await migrateUp(config.mysqlUrl);
  const deps = await createDeps(config);
  try {
    const r = await seedDemo(deps, new Date(), deps.log);
    console.log(r.created ? `demo show ${r.showId} seeded` : `demo show ${r.showId} already present`);
  } finally {
    await closeDeps(deps);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
