DROP TABLE admission_uses;
ALTER TABLE payments DROP COLUMN currency;
ALTER TABLE payments DROP KEY idx_payment_success;
ALTER TABLE reconciliations DROP COLUMN our_refunds, DROP COLUMN wechat_refunds;
