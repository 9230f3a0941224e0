-- Gate check-in. One row per admitted ticket: the primary key makes the first scan win, at any
-- gate, online or synced from an offline device.
CREATE TABLE checkins (
  ticket_id BIGINT UNSIGNED NOT NULL,
  session_id BIGINT UNSIGNED NOT NULL,
  gate VARCHAR(32) NOT NULL,
  staff_user_id BIGINT UNSIGNED NOT NULL,
  device VARCHAR(64) NULL,
  mode VARCHAR(8) NOT NULL,
  scanned_at DATETIME(3) NOT NULL,
  recorded_at DATETIME(3) NOT NULL,
  PRIMARY KEY (ticket_id),
  KEY idx_checkin_session_gate (session_id, gate)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Offline admissions that turned out to be second uses (another gate was first) or refunded
-- tickets, found when an offline device synced: shown on the admin page.
CREATE TABLE checkin_conflicts (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  ticket_id BIGINT UNSIGNED NOT NULL,
  session_id BIGINT UNSIGNED NOT NULL,
  kind VARCHAR(16) NOT NULL,
  gate VARCHAR(32) NOT NULL,
  staff_user_id BIGINT UNSIGNED NOT NULL,
  device VARCHAR(64) NULL,
  scanned_at DATETIME(3) NOT NULL,
  first_gate VARCHAR(32) NULL,
  first_at DATETIME(3) NULL,
  created_at DATETIME(3) NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_conflict (ticket_id, gate, scanned_at),
  KEY idx_conflict_session (session_id, created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
