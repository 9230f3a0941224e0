-- Cancelled and postponed sessions (issue 16). A cancelled session gets status 5; its refund run
-- is resumable from these rows: one per change, one per order the change touches.
ALTER TABLE show_sessions DROP CONSTRAINT chk_session_status;
ALTER TABLE show_sessions
  ADD CONSTRAINT chk_session_status CHECK (status BETWEEN 1 AND 5),
  -- A postponed session: its first date, and until when a fan's refund ignores the tiers.
  ADD COLUMN postponed_from DATETIME(3) NULL,
  ADD COLUMN full_refund_until DATETIME(3) NULL;

-- kind: cancel | postpone. state: running (orders still to notify, refund or settle) | done.
CREATE TABLE session_changes (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  session_id BIGINT UNSIGNED NOT NULL,
  kind VARCHAR(16) NOT NULL,
  state VARCHAR(16) NOT NULL DEFAULT 'running',
  reason VARCHAR(200) NOT NULL DEFAULT '',
  old_starts_at DATETIME(3) NOT NULL,
  new_starts_at DATETIME(3) NULL,
  refund_until DATETIME(3) NULL,
  created_by VARCHAR(64) NOT NULL,
  created_at DATETIME(3) NOT NULL,
  finished_at DATETIME(3) NULL,
  PRIMARY KEY (id),
  KEY idx_change_session (session_id, id),
  KEY idx_change_state (state, id),
  CONSTRAINT fk_change_session FOREIGN KEY (session_id) REFERENCES show_sessions (id),
  CONSTRAINT chk_change_kind CHECK (kind IN ('cancel', 'postpone'))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- The orders a change reached: the fan was told (one notice per order and change, written with
-- this row), and for a cancellation the order's full refund. state: todo (refund not asked yet),
-- requested (refund_id set; the refunds row tracks WeChat), failed (the refund was refused by
-- our own rules, e.g. a ticket already checked in: an operator looks), notified (postponement).
CREATE TABLE session_change_orders (
  change_id BIGINT UNSIGNED NOT NULL,
  order_id BIGINT UNSIGNED NOT NULL,
  amount_fen INT UNSIGNED NOT NULL,
  state VARCHAR(16) NOT NULL,
  refund_id BIGINT UNSIGNED NULL,
  error VARCHAR(200) NULL,
  updated_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  PRIMARY KEY (change_id, order_id),
  KEY idx_change_order_state (change_id, state),
  CONSTRAINT fk_change_order_change FOREIGN KEY (change_id) REFERENCES session_changes (id)
) ENGINE=InnoDB;
