-- The organiser's side: admin accounts and their sessions, the audit log, gate staff.

-- roles: comma-separated subset of admin, operator, staff_manager.
CREATE TABLE admin_users (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  username VARCHAR(64) NOT NULL,
  display_name VARCHAR(64) NOT NULL DEFAULT '',
  password_hash VARCHAR(255) NOT NULL,
  roles VARCHAR(64) NOT NULL,
  disabled TINYINT(1) NOT NULL DEFAULT 0,
  last_login_at DATETIME(3) NULL,
  created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  updated_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  UNIQUE KEY uk_admin_username (username)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- One row per login. The bearer token is stored only as its SHA-256; a session ends at
-- expires_at, after idle time without requests, or when revoked (logout, account change).
CREATE TABLE admin_sessions (
  token_hash CHAR(64) NOT NULL,
  admin_id BIGINT UNSIGNED NOT NULL,
  created_at DATETIME(3) NOT NULL,
  last_seen_at DATETIME(3) NOT NULL,
  expires_at DATETIME(3) NOT NULL,
  revoked_at DATETIME(3) NULL,
  ip VARCHAR(64) NOT NULL DEFAULT '',
  PRIMARY KEY (token_hash),
  KEY idx_admin_session_admin (admin_id, revoked_at),
  CONSTRAINT fk_admin_session_admin FOREIGN KEY (admin_id) REFERENCES admin_users (id)
) ENGINE=InnoDB;

-- Every change made from the admin page, written in the transaction of the change itself.
-- before_json / after_json hold the entity's state as JSON text (NULL for creation / deletion).
CREATE TABLE admin_audit_log (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  admin_id BIGINT UNSIGNED NULL,
  actor VARCHAR(64) NOT NULL,
  action VARCHAR(64) NOT NULL,
  entity_type VARCHAR(32) NOT NULL,
  entity_id VARCHAR(64) NOT NULL,
  before_json MEDIUMTEXT NULL,
  after_json MEDIUMTEXT NULL,
  ip VARCHAR(64) NOT NULL DEFAULT '',
  created_at DATETIME(3) NOT NULL,
  PRIMARY KEY (id),
  KEY idx_audit_entity (entity_type, entity_id, id),
  KEY idx_audit_created (created_at),
  KEY idx_audit_actor (actor, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Gate staff: a WeChat user (users.id) allowed to check tickets in for a show.
-- The check-in endpoint authorises a staff member's fan token against this table.
CREATE TABLE staff_assignments (
  user_id BIGINT UNSIGNED NOT NULL,
  show_id BIGINT UNSIGNED NOT NULL,
  created_by VARCHAR(64) NOT NULL,
  created_at DATETIME(3) NOT NULL,
  PRIMARY KEY (user_id, show_id),
  KEY idx_staff_show (show_id),
  CONSTRAINT fk_staff_user FOREIGN KEY (user_id) REFERENCES users (id),
  CONSTRAINT fk_staff_show FOREIGN KEY (show_id) REFERENCES shows (id)
) ENGINE=InnoDB;

-- Invite codes a staff manager hands out; a WeChat user redeems one in the mini-program.
CREATE TABLE staff_invites (
  code VARCHAR(16) NOT NULL,
  show_ids VARCHAR(2000) NOT NULL,
  max_uses INT UNSIGNED NOT NULL,
  uses INT UNSIGNED NOT NULL DEFAULT 0,
  note VARCHAR(100) NOT NULL DEFAULT '',
  expires_at DATETIME(3) NOT NULL,
  revoked_at DATETIME(3) NULL,
  created_by VARCHAR(64) NOT NULL,
  created_at DATETIME(3) NOT NULL,
  PRIMARY KEY (code),
  CONSTRAINT chk_invite_uses CHECK (uses <= max_uses)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE staff_invite_redemptions (
  code VARCHAR(16) NOT NULL,
  user_id BIGINT UNSIGNED NOT NULL,
  redeemed_at DATETIME(3) NOT NULL,
  PRIMARY KEY (code, user_id)
) ENGINE=InnoDB;
