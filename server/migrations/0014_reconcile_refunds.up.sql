-- Reconciliation also checks the bill's refund lines: counts kept per day beside the payments'.
ALTER TABLE reconciliations
  ADD COLUMN wechat_refunds INT UNSIGNED NOT NULL DEFAULT 0 AFTER our_payments,
  ADD COLUMN our_refunds INT UNSIGNED NOT NULL DEFAULT 0 AFTER wechat_refunds;
