-- Users, venues, seats, shows, sessions and prices: what is for sale.
CREATE TABLE users (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  openid VARCHAR(64) NOT NULL,
  unionid VARCHAR(64) NULL,
  nickname VARCHAR(64) NULL,
  created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  UNIQUE KEY uk_users_openid (openid)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE venues (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  name VARCHAR(100) NOT NULL,
  city VARCHAR(32) NOT NULL DEFAULT '',
  address VARCHAR(255) NOT NULL DEFAULT '',
  created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- x/y are drawing coordinates in venue units (the seat map scales them to the screen).
CREATE TABLE venue_seats (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  venue_id BIGINT UNSIGNED NOT NULL,
  section VARCHAR(32) NOT NULL,
  row_label VARCHAR(16) NOT NULL,
  seat_number VARCHAR(16) NOT NULL,
  x INT NOT NULL,
  y INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_seat_position (venue_id, section, row_label, seat_number),
  CONSTRAINT fk_seat_venue FOREIGN KEY (venue_id) REFERENCES venues (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE venue_zones (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  venue_id BIGINT UNSIGNED NOT NULL,
  name VARCHAR(64) NOT NULL,
  capacity INT UNSIGNED NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_zone_name (venue_id, name),
  CONSTRAINT fk_zone_venue FOREIGN KEY (venue_id) REFERENCES venues (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- refund_rules: JSON array of {hoursBeforeStart, feePercent}, most generous first.
CREATE TABLE shows (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  title VARCHAR(200) NOT NULL,
  venue_id BIGINT UNSIGNED NOT NULL,
  description TEXT NULL,
  poster_url VARCHAR(500) NULL,
  refund_rules TEXT NULL,
  created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  updated_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  CONSTRAINT fk_show_venue FOREIGN KEY (venue_id) REFERENCES venues (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- status: 1 presale, 2 on sale, 3 sold out, 4 ended.
CREATE TABLE show_sessions (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  show_id BIGINT UNSIGNED NOT NULL,
  starts_at DATETIME(3) NOT NULL,
  sale_starts_at DATETIME(3) NOT NULL,
  status TINYINT UNSIGNED NOT NULL DEFAULT 1,
  purchase_limit SMALLINT UNSIGNED NOT NULL DEFAULT 4,
  hold_minutes SMALLINT UNSIGNED NOT NULL DEFAULT 15,
  real_name TINYINT(1) NOT NULL DEFAULT 0,
  queue_enabled TINYINT(1) NOT NULL DEFAULT 0,
  queue_rate_per_min INT UNSIGNED NULL,
  created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  updated_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  UNIQUE KEY uk_show_date (show_id, starts_at),
  KEY idx_session_status (status, sale_starts_at),
  CONSTRAINT fk_session_show FOREIGN KEY (show_id) REFERENCES shows (id),
  CONSTRAINT chk_session_status CHECK (status BETWEEN 1 AND 4),
  CONSTRAINT chk_purchase_limit CHECK (purchase_limit BETWEEN 1 AND 10)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE price_tiers (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  session_id BIGINT UNSIGNED NOT NULL,
  name VARCHAR(32) NOT NULL,
  price_fen INT UNSIGNED NOT NULL,
  color VARCHAR(16) NULL,
  sort_order SMALLINT NOT NULL DEFAULT 0,
  PRIMARY KEY (id),
  UNIQUE KEY uk_tier_name (session_id, name),
  CONSTRAINT fk_tier_session FOREIGN KEY (session_id) REFERENCES show_sessions (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Which venue seats a session sells, and at which tier.
CREATE TABLE session_seats (
  session_id BIGINT UNSIGNED NOT NULL,
  seat_id BIGINT UNSIGNED NOT NULL,
  tier_id BIGINT UNSIGNED NOT NULL,
  PRIMARY KEY (session_id, seat_id),
  CONSTRAINT fk_ss_session FOREIGN KEY (session_id) REFERENCES show_sessions (id),
  CONSTRAINT fk_ss_seat FOREIGN KEY (seat_id) REFERENCES venue_seats (id),
  CONSTRAINT fk_ss_tier FOREIGN KEY (tier_id) REFERENCES price_tiers (id)
) ENGINE=InnoDB;

-- General-admission zones a session sells; units are numbered slots 1..capacity.
CREATE TABLE session_zones (
  session_id BIGINT UNSIGNED NOT NULL,
  zone_id BIGINT UNSIGNED NOT NULL,
  tier_id BIGINT UNSIGNED NOT NULL,
  capacity INT UNSIGNED NOT NULL,
  PRIMARY KEY (session_id, zone_id),
  CONSTRAINT fk_sz_session FOREIGN KEY (session_id) REFERENCES show_sessions (id),
  CONSTRAINT fk_sz_zone FOREIGN KEY (zone_id) REFERENCES venue_zones (id),
  CONSTRAINT fk_sz_tier FOREIGN KEY (tier_id) REFERENCES price_tiers (id)
) ENGINE=InnoDB;
