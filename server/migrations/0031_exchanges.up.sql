-- Exchanges (改签, issue 16): a fan moves tickets of a paid order to other seats of the same
-- session or of another session of the same show. The new seats are bought by an exchange
-- order (an ordinary orders row: the same Redis gate, seat/zone/attendee claims and expiry),
-- linked here to the original order and its tickets. Once that order is paid (or at once when
-- nothing is owed), one transaction moves the old tickets to EXCHANGED (6) and issues the new.

-- The organiser's rules, per show: exchange allowed, and until how long before a session starts.
ALTER TABLE shows
  ADD COLUMN exchange_allowed TINYINT(1) NOT NULL DEFAULT 0,
  ADD COLUMN exchange_cutoff_minutes INT UNSIGNED NOT NULL DEFAULT 0;

-- status: 0 pending (the exchange order is not paid yet), 1 done, 2 failed (the old tickets
-- could not be given up when it was paid: the exchange order is refunded in full).
-- diff_fen: new price minus old price (negative: refund_id is the refund of the difference
-- on the original payment).
CREATE TABLE exchanges (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  user_id BIGINT UNSIGNED NOT NULL,
  original_order_id BIGINT UNSIGNED NOT NULL,
  exchange_order_id BIGINT UNSIGNED NOT NULL,
  from_session_id BIGINT UNSIGNED NOT NULL,
  to_session_id BIGINT UNSIGNED NOT NULL,
  status TINYINT UNSIGNED NOT NULL DEFAULT 0,
  old_fen INT UNSIGNED NOT NULL,
  new_fen INT UNSIGNED NOT NULL,
  diff_fen INT NOT NULL,
  refund_id BIGINT UNSIGNED NULL,
  error VARCHAR(200) NULL,
  created_at DATETIME(3) NOT NULL,
  finished_at DATETIME(3) NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_exchange_order (exchange_order_id),
  KEY idx_exchange_original (original_order_id, id),
  CONSTRAINT chk_exchange_status CHECK (status BETWEEN 0 AND 2)
) ENGINE=InnoDB;

-- One row per ticket given up, with the exchange order's item that replaces it (same position).
-- live_ticket_id is the old ticket while the exchange may still complete (pending) and stays
-- once done; NULL once its exchange order was cancelled or the exchange failed: its unique key
-- lets no ticket be in two live exchanges, whatever the service checks.
CREATE TABLE exchange_items (
  exchange_id BIGINT UNSIGNED NOT NULL,
  position SMALLINT UNSIGNED NOT NULL,
  old_ticket_id BIGINT UNSIGNED NOT NULL,
  old_item_id BIGINT UNSIGNED NOT NULL,
  live_ticket_id BIGINT UNSIGNED NULL,
  PRIMARY KEY (exchange_id, position),
  UNIQUE KEY uk_exchange_item_live (live_ticket_id),
  KEY idx_exchange_item_ticket (old_ticket_id),
  KEY idx_exchange_item_item (old_item_id)
) ENGINE=InnoDB;
