-- Degradation switches an operator turns on during an overload (issue 14): one row per switch
-- that is on; turning it off deletes the row. scope_id is the session of a per-session switch
-- (force_queue), 0 for switches of the whole system. Every change is also in admin_audit_log.
CREATE TABLE degrade_switches (
  name VARCHAR(32) NOT NULL,
  scope_id BIGINT UNSIGNED NOT NULL DEFAULT 0,
  value INT NOT NULL,
  reason VARCHAR(200) NOT NULL DEFAULT '',
  updated_by VARCHAR(64) NOT NULL,
  updated_at DATETIME(3) NOT NULL,
  PRIMARY KEY (name, scope_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
