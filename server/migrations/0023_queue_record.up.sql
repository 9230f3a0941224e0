-- The waiting room's record (issue 13): Redis serves the queue, MySQL keeps what a rebuild needs
-- to put every fan back in the same place after Redis lost it (a flush, a restart, a failover
-- that dropped the last writes).

-- One row per session with a waiting room.
-- epoch: bumped by every rebuild of the Redis queue; a join whose place came from an older Redis
--   is refused by the group commit (its batch reads the epoch under a shared lock, the rebuild
--   holds it exclusively while it copies MySQL into Redis) and the join runs again.
-- seed, opened_at, pool_size: the sale opened with this pre-sale pool and this draw seed.
-- drawn: every pool member's drawn place is in queue_entries (written before any place shows).
-- admitted_through: places up to here have been admitted (never goes back).
CREATE TABLE queue_rooms (
  session_id BIGINT UNSIGNED NOT NULL,
  epoch INT UNSIGNED NOT NULL DEFAULT 0,
  seed CHAR(32) NULL,
  opened_at DATETIME(3) NULL,
  pool_size INT UNSIGNED NULL,
  drawn TINYINT NOT NULL DEFAULT 0,
  admitted_through INT UNSIGNED NOT NULL DEFAULT 0,
  PRIMARY KEY (session_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- One row per fan in a session's waiting room, written by group commit before the join answers.
-- place: NULL while in the pre-sale pool (not drawn yet); only ever grows (joining again after a
--   turn ended queues at the back). presale: joined before the sale opened (drawn at random).
-- turn_start: when the fan was admitted (the turn lasts QUEUE_TURN_MS from there).
CREATE TABLE queue_entries (
  session_id BIGINT UNSIGNED NOT NULL,
  user_id VARCHAR(64) NOT NULL,
  place INT UNSIGNED NULL,
  presale TINYINT NOT NULL DEFAULT 0,
  id_hash CHAR(64) NULL,
  joined_at DATETIME(3) NOT NULL,
  turn_start DATETIME(3) NULL,
  PRIMARY KEY (session_id, user_id),
  KEY idx_queue_place (session_id, place)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
