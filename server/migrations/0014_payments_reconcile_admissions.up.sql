-- Reconciliation also checks the bill's refund lines: counts kept per day beside the payments'.
ALTER TABLE reconciliations
  ADD COLUMN wechat_refunds INT UNSIGNED NOT NULL DEFAULT 0 AFTER our_payments,
  ADD COLUMN our_refunds INT UNSIGNED NOT NULL DEFAULT 0 AFTER wechat_refunds;

-- A day's payments are found by success time (reconciliation, daily, over the whole table).
ALTER TABLE payments ADD KEY idx_payment_success (success_time);

-- The currency WeChat took: a payment in anything but CNY is held for an operator, never applied.
ALTER TABLE payments ADD COLUMN currency CHAR(3) NOT NULL DEFAULT 'CNY' AFTER amount_fen;

-- The use of a waiting-room admission token, kept with the record: one purchase per turn holds
-- even after Redis lost its marker (MySQL refuses a second use; a rebuild restores the markers).
-- A buyer who cancels gets the turn back: the row goes with the cancellation.
-- expires_at: until when the token could be presented (UTC); the marker lives that long.
CREATE TABLE admission_uses (
  jti VARCHAR(32) NOT NULL,
  session_id BIGINT UNSIGNED NOT NULL,
  order_id BIGINT UNSIGNED NOT NULL,
  expires_at DATETIME(3) NOT NULL,
  PRIMARY KEY (jti),
  KEY idx_admission_session (session_id, expires_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
