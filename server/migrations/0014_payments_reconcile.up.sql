-- Reconciliation also checks the bill's refund lines: counts kept per day beside the payments'.
ALTER TABLE reconciliations
  ADD COLUMN wechat_refunds INT UNSIGNED NOT NULL DEFAULT 0 AFTER our_payments,
  ADD COLUMN our_refunds INT UNSIGNED NOT NULL DEFAULT 0 AFTER wechat_refunds;

-- A day's payments are found by success time (reconciliation, daily, over the whole table).
ALTER TABLE payments ADD KEY idx_payment_success (success_time);

-- The currency WeChat took: a payment in anything but CNY is held for an operator, never applied.
ALTER TABLE payments ADD COLUMN currency CHAR(3) NOT NULL DEFAULT 'CNY' AFTER amount_fen;
