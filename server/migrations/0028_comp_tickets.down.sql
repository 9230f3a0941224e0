DROP TABLE comp_orders;
DROP TABLE comp_claims;
DELETE FROM seat_claims WHERE order_id = 0;
DELETE FROM zone_claims WHERE order_id = 0;
ALTER TABLE orders DROP CONSTRAINT chk_order_channel;
ALTER TABLE orders DROP COLUMN channel;
