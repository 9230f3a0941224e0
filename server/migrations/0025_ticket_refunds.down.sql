-- Only while no payment has two order refunds (the old key allows one per payment and kind).
ALTER TABLE refunds
  ADD UNIQUE KEY uk_refund_payment_kind (payment_id, kind),
  DROP KEY uk_refund_payment_kind_seq,
  DROP COLUMN seq;
DROP TABLE IF EXISTS refund_items;
