// After the run: what MySQL (the record) says was sold, whether anything was sold twice, and
// whether Redis agrees. `sessions`: the seeded sessions (seedTour), by id.
export async function audit(deps, sessions) {
  const sessionIds = sessions.map((s) => s.id);
  const q = async (sql, params) => (await deps.db.query(sql, params))[0];
  const [seats] = await q('SELECT COUNT(*) n FROM seat_claims WHERE session_id IN (?)', [sessionIds]);
  const [units] = await q('SELECT COUNT(*) n FROM zone_claims WHERE session_id IN (?)', [sessionIds]);
  const [orders] = await q('SELECT COUNT(*) n FROM orders WHERE session_id IN (?) AND status IN (1, 2, 3)', [
    sessionIds,
  ]);
  const [dupSeats] = await q(
    `SELECT COUNT(*) n FROM (SELECT i.session_id, i.seat_id FROM order_items i JOIN orders o ON o.id = i.order_id
       WHERE o.status IN (1, 2, 3) AND i.seat_id IS NOT NULL AND i.session_id IN (?)
       GROUP BY i.session_id, i.seat_id HAVING COUNT(*) > 1) d`,
    [sessionIds],
  );
  const [dupUnits] = await q(
    `SELECT COUNT(*) n FROM (SELECT i.session_id, i.zone_id, i.slot_no FROM order_items i JOIN orders o ON o.id = i.order_id
       WHERE o.status IN (1, 2, 3) AND i.zone_id IS NOT NULL AND i.session_id IN (?)
       GROUP BY i.session_id, i.zone_id, i.slot_no HAVING COUNT(*) > 1) d`,
    [sessionIds],
  );
  let oversoldSessions = 0;
  let redisDiff = 0;
  for (const id of sessionIds) {
    const [cap] = await q(
      `SELECT (SELECT COUNT(*) FROM session_seats WHERE session_id = ?) + (SELECT COALESCE(SUM(capacity), 0) FROM session_zones WHERE session_id = ?) AS c`,
      [id, id],
    );
    const [sold] = await q(
      'SELECT (SELECT COUNT(*) FROM seat_claims WHERE session_id = ?) + (SELECT COUNT(*) FROM zone_claims WHERE session_id = ?) AS s',
      [id, id],
    );
    if (Number(sold.s) > Number(cap.c)) oversoldSessions += Number(sold.s) - Number(cap.c);
    const avail = Number(await deps.redis.hget(deps.keys.session(id).meta, 'avail'));
    redisDiff += Math.abs(avail - (Number(cap.c) - Number(sold.s)));
  }
  return {
    sold: Number(seats.n) + Number(units.n),
    orders: Number(orders.n),
    doubleSold: Number(dupSeats.n) + Number(dupUnits.n),
    oversoldSessions,
    redisDiff,
  };
}
