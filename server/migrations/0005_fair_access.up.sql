-- Fair access: real-name attendees (one ID, one ticket per session), per-show limits,
-- the blocklist and risk flags the admin page edits, and the expired-hold streak.

-- Per-user limit across all sessions of a show (NULL: only the per-session limit applies).
ALTER TABLE shows ADD COLUMN show_purchase_limit SMALLINT UNSIGNED NULL;

-- Holds a user let expire in a row; reset by a payment. Past the cap, new holds wait.
ALTER TABLE users ADD COLUMN expired_streak SMALLINT UNSIGNED NOT NULL DEFAULT 0;

CREATE TABLE user_show_quota (
  user_id BIGINT UNSIGNED NOT NULL,
  show_id BIGINT UNSIGNED NOT NULL,
  used SMALLINT NOT NULL,
  limit_max SMALLINT NOT NULL,
  PRIMARY KEY (user_id, show_id),
  CONSTRAINT chk_show_quota CHECK (used >= 0 AND used <= limit_max)
) ENGINE=InnoDB;

-- One row per ID document in a live order of a real-name session: the key makes a second
-- ticket for the same ID in the same session impossible, across orders and accounts.
CREATE TABLE attendee_claims (
  session_id BIGINT UNSIGNED NOT NULL,
  id_hash CHAR(64) NOT NULL,
  order_id BIGINT UNSIGNED NOT NULL,
  PRIMARY KEY (session_id, id_hash),
  KEY idx_attendee_claim_order (order_id)
) ENGINE=InnoDB;

-- Attendees of an order, in item order. Names and ID numbers are stored encrypted
-- (AES-256-GCM); masked copies are kept for display; id_hash is a keyed hash for lookups.
CREATE TABLE order_attendees (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  order_id BIGINT UNSIGNED NOT NULL,
  position SMALLINT UNSIGNED NOT NULL,
  id_type VARCHAR(20) NOT NULL,
  name_enc VARCHAR(200) NOT NULL,
  id_number_enc VARCHAR(200) NOT NULL,
  name_masked VARCHAR(64) NOT NULL,
  id_masked VARCHAR(40) NOT NULL,
  id_hash CHAR(64) NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_order_attendee (order_id, position)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- A buyer's frequent attendees (常用观演人).
CREATE TABLE user_attendees (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  user_id BIGINT UNSIGNED NOT NULL,
  id_type VARCHAR(20) NOT NULL,
  name_enc VARCHAR(200) NOT NULL,
  id_number_enc VARCHAR(200) NOT NULL,
  name_masked VARCHAR(64) NOT NULL,
  id_masked VARCHAR(40) NOT NULL,
  id_hash CHAR(64) NOT NULL,
  created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  UNIQUE KEY uk_user_attendee (user_id, id_hash)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- kind: user | device | ip | id (id: the keyed hash of an ID document).
CREATE TABLE blocklist (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  kind VARCHAR(16) NOT NULL,
  value VARCHAR(128) NOT NULL,
  reason VARCHAR(200) NOT NULL DEFAULT '',
  created_by VARCHAR(64) NOT NULL DEFAULT '',
  created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  UNIQUE KEY uk_block (kind, value)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Many accounts seen behind one device or address (kind: device | ip).
CREATE TABLE risk_flags (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  kind VARCHAR(16) NOT NULL,
  subject VARCHAR(128) NOT NULL,
  accounts INT UNSIGNED NOT NULL,
  first_seen DATETIME(3) NOT NULL,
  last_seen DATETIME(3) NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_risk_subject (kind, subject)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
