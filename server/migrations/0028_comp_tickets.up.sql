-- Reserved units and complimentary tickets (issue 16, organiser part).
--
-- A reserved unit (held back from public sale: sponsors, production) is a seat_claims or
-- zone_claims row whose order_id is 0: the same primary key that refuses a double sale refuses a
-- fan's order for it, whatever Redis says, and a rebuild from MySQL restores it (Redis value
-- 'S|0'). A complimentary ticket is issued from a reserved unit: the unit keeps its reserved claim
-- (so the public share and the gate see nothing change) and comp_claims records which live
-- complimentary order holds it, one at most.

-- How an order came: 'miniprogram' (bought and paid through WeChat Pay) or 'comp' (issued by the
-- organiser without payment, amount 0, no payment row).
ALTER TABLE orders
  ADD COLUMN channel VARCHAR(16) NOT NULL DEFAULT 'miniprogram',
  ADD CONSTRAINT chk_order_channel CHECK (channel IN ('miniprogram', 'comp'));

-- unit: 's<seatId>' or 'z<zoneId>:<slotNo>'. A row exists while the complimentary order holding
-- the reserved unit is live (deleted when the organiser voids it): no unit in two live comps.
CREATE TABLE comp_claims (
  session_id BIGINT UNSIGNED NOT NULL,
  unit VARCHAR(32) NOT NULL,
  order_id BIGINT UNSIGNED NOT NULL,
  PRIMARY KEY (session_id, unit),
  KEY idx_comp_claim_order (order_id)
) ENGINE=InnoDB;

-- The named person of a complimentary order and its delivery: the claim code the person opens
-- in the mini-program to bind the tickets to their WeChat account (stored encrypted to show it
-- again to the organiser, looked up by its hash). Name and phone encrypted, masked for display.
-- idem_key: the organiser's idempotency key (orders.idempotency_key stays NULL: that key is per
-- buyer, and the order's user changes when the person claims it).
CREATE TABLE comp_orders (
  order_id BIGINT UNSIGNED NOT NULL,
  session_id BIGINT UNSIGNED NOT NULL,
  idem_key VARCHAR(128) NOT NULL,
  name_enc VARCHAR(200) NOT NULL,
  name_masked VARCHAR(64) NOT NULL,
  phone_enc VARCHAR(128) NOT NULL,
  phone_masked VARCHAR(16) NOT NULL,
  phone_hash CHAR(64) NOT NULL,
  note VARCHAR(200) NOT NULL DEFAULT '',
  code_enc VARCHAR(128) NOT NULL,
  code_hash CHAR(64) NOT NULL,
  issued_by VARCHAR(64) NOT NULL,
  issued_at DATETIME(3) NOT NULL,
  claimed_by BIGINT UNSIGNED NULL,
  claimed_at DATETIME(3) NULL,
  voided_by VARCHAR(64) NULL,
  voided_at DATETIME(3) NULL,
  void_reason VARCHAR(200) NULL,
  PRIMARY KEY (order_id),
  UNIQUE KEY uk_comp_idem (idem_key),
  UNIQUE KEY uk_comp_code (code_hash),
  KEY idx_comp_session (session_id, issued_at),
  KEY idx_comp_phone (phone_hash)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
