-- Device-bound tickets: the fan's device key bound to a ticket by the server's signature. One live
-- binding per ticket (the generated column is NULL once revoked, so the unique key only counts
-- live rows); a re-bind revokes the old row, which stays for the admin ticket view and the
-- offline bundles' revocation list.
CREATE TABLE ticket_bindings (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  ticket_id BIGINT UNSIGNED NOT NULL,
  user_id BIGINT UNSIGNED NOT NULL,
  device_key CHAR(43) NOT NULL,
  manual_key CHAR(43) NOT NULL,
  device_id VARCHAR(64) NULL,
  valid_until DATETIME(3) NOT NULL,
  created_at DATETIME(3) NOT NULL,
  revoked_at DATETIME(3) NULL,
  revoked_reason VARCHAR(16) NULL,
  live_ticket_id BIGINT UNSIGNED AS (IF(revoked_at IS NULL, ticket_id, NULL)) STORED,
  PRIMARY KEY (id),
  UNIQUE KEY uk_binding_live (live_ticket_id),
  KEY idx_binding_ticket (ticket_id, created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Organiser setting: no re-binding this many minutes before the session starts (NULL: allowed).
ALTER TABLE show_sessions ADD COLUMN rebind_freeze_minutes INT UNSIGNED NULL;

-- How a ticket was admitted: qr (scanned code) or manual_id / manual_code (typed in with a second
-- factor), counted apart on the admin page.
ALTER TABLE checkins ADD COLUMN kind VARCHAR(16) NOT NULL DEFAULT 'qr';
