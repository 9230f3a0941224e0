-- Daily reconciliation of our payments against WeChat Pay's trade bill.
CREATE TABLE reconciliations (
  bill_date DATE NOT NULL,
  status VARCHAR(16) NOT NULL,
  wechat_payments INT UNSIGNED NOT NULL DEFAULT 0,
  our_payments INT UNSIGNED NOT NULL DEFAULT 0,
  recovered INT UNSIGNED NOT NULL DEFAULT 0,
  unmatched INT UNSIGNED NOT NULL DEFAULT 0,
  details TEXT NULL,
  started_at DATETIME(3) NOT NULL,
  finished_at DATETIME(3) NULL,
  PRIMARY KEY (bill_date)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
