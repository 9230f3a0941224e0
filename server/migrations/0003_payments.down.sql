DROP TABLE IF EXISTS notices;
DROP TABLE IF EXISTS refunds;
DROP TABLE IF EXISTS tickets;
ALTER TABLE payments DROP COLUMN outcome;
ALTER TABLE orders DROP KEY idx_order_pay_check, DROP COLUMN pay_checked_at, DROP COLUMN pay_requested_at, DROP COLUMN prepay_id;
