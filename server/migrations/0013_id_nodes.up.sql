-- Node numbers of the order-id generator (10 bits: 0..1023), leased by running instances so no
-- two live instances ever share one, whatever happens to Redis. A lease is taken by a
-- conditional UPDATE of an expired row, kept alive by a heartbeat, and given back on shutdown.
-- holder: the instance's random lease id (NULL when free); expires_at: UTC, MySQL's own clock;
-- last_ms: the highest id millisecond its holders reported, so a later holder starts above it.
CREATE TABLE id_nodes (
  node SMALLINT UNSIGNED NOT NULL,
  holder CHAR(32) NULL,
  expires_at DATETIME(3) NOT NULL,
  last_ms BIGINT UNSIGNED NOT NULL DEFAULT 0,
  PRIMARY KEY (node),
  UNIQUE KEY uk_id_node_holder (holder),
  KEY idx_id_node_expires (expires_at),
  CONSTRAINT chk_id_node_range CHECK (node < 1024)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

INSERT INTO id_nodes (node, expires_at)
  WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 31)
  SELECT a.i * 32 + b.i, '1970-01-01 00:00:01' FROM s a CROSS JOIN s b;
