-- WeChat Pay, tickets and refunds.

ALTER TABLE orders
  ADD COLUMN prepay_id VARCHAR(64) NULL,
  ADD COLUMN pay_requested_at DATETIME(3) NULL,
  ADD COLUMN pay_checked_at DATETIME(3) NULL,
  ADD KEY idx_order_pay_check (status, pay_requested_at);

-- A payment notification may arrive for an order we no longer hold (late payment): the payment
-- row is kept regardless, and `outcome` records what became of the money.
ALTER TABLE payments
  ADD COLUMN outcome VARCHAR(16) NOT NULL DEFAULT 'applied';

-- status: 1 valid, 2 voided (refunded), 3 refund in progress (not admitted at the gate).
CREATE TABLE tickets (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  ticket_no CHAR(20) NOT NULL,
  order_id BIGINT UNSIGNED NOT NULL,
  order_item_id BIGINT UNSIGNED NOT NULL,
  user_id BIGINT UNSIGNED NOT NULL,
  session_id BIGINT UNSIGNED NOT NULL,
  seat_id BIGINT UNSIGNED NULL,
  zone_id BIGINT UNSIGNED NULL,
  slot_no INT UNSIGNED NULL,
  secret CHAR(43) NOT NULL,
  status TINYINT UNSIGNED NOT NULL DEFAULT 1,
  created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  voided_at DATETIME(3) NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_ticket_no (ticket_no),
  UNIQUE KEY uk_ticket_item (order_item_id),
  KEY idx_ticket_user (user_id, session_id),
  KEY idx_ticket_order (order_id)
) ENGINE=InnoDB;

-- One full refund per order and reason kind; out_refund_no is stable across retries.
-- status: 0 requested, 1 processing at WeChat, 2 success, 3 abnormal, 4 closed.
CREATE TABLE refunds (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  order_id BIGINT UNSIGNED NOT NULL,
  payment_id BIGINT UNSIGNED NOT NULL,
  kind VARCHAR(16) NOT NULL,
  out_refund_no VARCHAR(64) NOT NULL,
  refund_id VARCHAR(64) NULL,
  amount_fen INT UNSIGNED NOT NULL,
  fee_fen INT UNSIGNED NOT NULL DEFAULT 0,
  status TINYINT UNSIGNED NOT NULL DEFAULT 0,
  reason VARCHAR(200) NULL,
  requested_by VARCHAR(32) NOT NULL,
  created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  finished_at DATETIME(3) NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_out_refund_no (out_refund_no),
  UNIQUE KEY uk_refund_payment_kind (payment_id, kind),
  KEY idx_refund_order (order_id),
  KEY idx_refund_status (status, created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Notices sent to buyers (WeChat subscribe messages), one per outbox message.
CREATE TABLE notices (
  message_key VARCHAR(64) NOT NULL,
  user_id BIGINT UNSIGNED NOT NULL,
  template VARCHAR(32) NOT NULL,
  sent_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (message_key)
) ENGINE=InnoDB;
