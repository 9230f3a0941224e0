import { startReplicaPair } from '../../../scripts/mariadb-replica.mjs';

/** Starts the suite's own primary + replica; test workers learn where through the env. */
export default async function setup() {
  const p = await startReplicaPair();
  process.env.TEST_REPLICA_DIR = p.dir;
  process.env.TEST_REPLICA_PRIMARY = p.primary;
  process.env.TEST_REPLICA_REPLICA = p.replica;
}
