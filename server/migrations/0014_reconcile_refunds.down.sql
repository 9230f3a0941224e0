ALTER TABLE reconciliations DROP COLUMN our_refunds, DROP COLUMN wechat_refunds;
