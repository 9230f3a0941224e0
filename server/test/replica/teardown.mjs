import { stopReplicaPair } from '../../../scripts/mariadb-replica.mjs';

export default async function teardown() {
  if (process.env.TEST_REPLICA_DIR) await stopReplicaPair(process.env.TEST_REPLICA_DIR);
}
