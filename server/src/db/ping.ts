import type { Db } from './pool';

/** The cheapest round trip that proves MySQL answers (health and readiness checks). */
export async function ping(db: Db): Promise<void> {
  await db.query('SELECT 1');
}
