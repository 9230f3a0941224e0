-- Per-ticket refunds (issue 16): an order refund names the order items it gives back, so one
-- ticket of a four-ticket order can be refunded and the other three stay admissible.

-- live_item_id is the order item while the refund is not closed (requested, at WeChat,
-- abnormal or succeeded) and NULL once WeChat closed it: its unique key lets no item be in two
-- live refunds, whatever the service checks, and a closed refund gives the item back.
CREATE TABLE refund_items (
  refund_id BIGINT UNSIGNED NOT NULL,
  order_item_id BIGINT UNSIGNED NOT NULL,
  order_id BIGINT UNSIGNED NOT NULL,
  price_fen INT UNSIGNED NOT NULL,
  live_item_id BIGINT UNSIGNED NULL,
  PRIMARY KEY (refund_id, order_item_id),
  UNIQUE KEY uk_refund_item_live (live_item_id),
  KEY idx_refund_item_item (order_item_id),
  KEY idx_refund_item_order (order_id)
) ENGINE=InnoDB;

-- Every order refund made before this one was for the whole order: it names all its items.
INSERT INTO refund_items (refund_id, order_item_id, order_id, price_fen, live_item_id)
SELECT r.id, i.id, r.order_id, i.price_fen, IF(r.status = 4, NULL, i.id)
  FROM refunds r JOIN order_items i ON i.order_id = r.order_id
 WHERE r.kind = 'order';

-- Several order refunds per payment now (one per request): numbered per payment and kind, the
-- number is part of out_refund_no, so each refund has its own at WeChat. The other kinds keep 1.
ALTER TABLE refunds
  ADD COLUMN seq SMALLINT UNSIGNED NOT NULL DEFAULT 1 AFTER kind,
  ADD UNIQUE KEY uk_refund_payment_kind_seq (payment_id, kind, seq),
  DROP KEY uk_refund_payment_kind;
