-- Ticket transfers (转赠, issue 16). A fan offers one ticket; a receiver accepts it in their own
-- mini-program. The giver's ticket ends TRANSFERRED (status 4) and a new ticket (new number, new
-- secret: the old code is dead) is the receiver's, on the same order item and seat.

-- The organiser's rules per show. No row: transfers are not allowed.
-- cutoff_minutes: offers close (and open ones expire) this long before the session starts.
-- once_only: a ticket that was received by transfer cannot be transferred again.
CREATE TABLE show_transfer_settings (
  show_id BIGINT UNSIGNED NOT NULL,
  enabled TINYINT(1) NOT NULL DEFAULT 0,
  cutoff_minutes INT UNSIGNED NOT NULL DEFAULT 120,
  once_only TINYINT(1) NOT NULL DEFAULT 1,
  updated_by VARCHAR(64) NOT NULL,
  updated_at DATETIME(3) NOT NULL,
  PRIMARY KEY (show_id),
  CONSTRAINT fk_transfer_settings_show FOREIGN KEY (show_id) REFERENCES shows (id)
) ENGINE=InnoDB;

-- An order item may now have several tickets over time (the giver's, TRANSFERRED, then the
-- receiver's), but never two live ones: live_item_id is NULL once a ticket was handed over, and
-- its unique key takes the place of the old one-ticket-per-item key (issuing tickets twice is
-- still refused by it). transferred_from: the ticket this one replaced.
ALTER TABLE tickets
  ADD COLUMN live_item_id BIGINT UNSIGNED AS (IF(status = 4, NULL, order_item_id)) STORED,
  ADD COLUMN transferred_from BIGINT UNSIGNED NULL,
  ADD UNIQUE KEY uk_ticket_live_item (live_item_id),
  ADD UNIQUE KEY uk_ticket_transferred_from (transferred_from),
  ADD KEY idx_ticket_item (order_item_id),
  DROP KEY uk_ticket_item;

-- One row per offer. state: open | accepted | cancelled (by the giver) | expired (cutoff, or the
-- ticket left TRANSFERRING meanwhile, e.g. a session cancel). The code is never stored: it is an
-- HMAC under a server key of the ticket and a random nonce (so the giver can be shown it again),
-- and only its keyed hash is kept for lookups; a database reader cannot accept an offer. open_ticket_id makes two
-- open offers of one ticket impossible; new_ticket_id is the receiver's ticket (unique: one
-- acceptance per offer). On a real-name session the attendee the item was bound to before and
-- after is kept (masked and hashed; order_attendees holds the current one, encrypted).
CREATE TABLE ticket_transfers (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  ticket_id BIGINT UNSIGNED NOT NULL,
  order_id BIGINT UNSIGNED NOT NULL,
  order_item_id BIGINT UNSIGNED NOT NULL,
  session_id BIGINT UNSIGNED NOT NULL,
  giver_user_id BIGINT UNSIGNED NOT NULL,
  nonce CHAR(22) NOT NULL,
  code_hash CHAR(43) NOT NULL,
  state VARCHAR(16) NOT NULL DEFAULT 'open',
  expires_at DATETIME(3) NOT NULL,
  created_at DATETIME(3) NOT NULL,
  closed_at DATETIME(3) NULL,
  receiver_user_id BIGINT UNSIGNED NULL,
  new_ticket_id BIGINT UNSIGNED NULL,
  from_name_masked VARCHAR(64) NULL,
  from_id_masked VARCHAR(40) NULL,
  from_id_hash CHAR(64) NULL,
  to_name_masked VARCHAR(64) NULL,
  to_id_masked VARCHAR(40) NULL,
  to_id_hash CHAR(64) NULL,
  open_ticket_id BIGINT UNSIGNED AS (IF(state = 'open', ticket_id, NULL)) STORED,
  PRIMARY KEY (id),
  UNIQUE KEY uk_transfer_code (code_hash),
  UNIQUE KEY uk_transfer_open (open_ticket_id),
  UNIQUE KEY uk_transfer_new_ticket (new_ticket_id),
  KEY idx_transfer_order (order_id, id),
  KEY idx_transfer_state (state, expires_at),
  KEY idx_transfer_receiver (receiver_user_id),
  CONSTRAINT chk_transfer_state CHECK (state IN ('open', 'accepted', 'cancelled', 'expired'))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
