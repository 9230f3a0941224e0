-- Subscribe-message consent (issue 16): WeChat's one-time subscriptions allow one message per
-- 'accept' in wx.requestSubscribeMessage. The fan's answers are posted here; each send takes one
-- (UPDATE ... remaining = remaining - 1 WHERE remaining > 0), a 43101 from WeChat sets it to 0.
CREATE TABLE notice_consents (
  user_id BIGINT UNSIGNED NOT NULL,
  template_id VARCHAR(64) NOT NULL,
  remaining INT UNSIGNED NOT NULL DEFAULT 0,
  updated_at DATETIME(3) NOT NULL,
  PRIMARY KEY (user_id, template_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- One row per requestSubscribeMessage answer posted, so a retried post is not counted twice.
CREATE TABLE notice_consent_requests (
  user_id BIGINT UNSIGNED NOT NULL,
  request_id VARCHAR(64) NOT NULL,
  created_at DATETIME(3) NOT NULL,
  PRIMARY KEY (user_id, request_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- The day-before reminder is enqueued once per order.
CREATE TABLE notice_reminders (
  order_id BIGINT UNSIGNED NOT NULL,
  created_at DATETIME(3) NOT NULL,
  PRIMARY KEY (order_id)
) ENGINE=InnoDB;

-- Every notice's outcome is kept: sent, no_consent (WeChat not asked), refused (WeChat's errcode,
-- e.g. 43101), failed (a permanent error); sending while a send is in flight or being retried.
ALTER TABLE notices
  ADD COLUMN status VARCHAR(16) NOT NULL DEFAULT 'sent',
  ADD COLUMN kind VARCHAR(32) NULL,
  ADD COLUMN template_id VARCHAR(64) NULL,
  ADD COLUMN order_id BIGINT UNSIGNED NULL,
  ADD COLUMN errcode INT NULL,
  ADD COLUMN errmsg VARCHAR(255) NULL,
  ADD COLUMN attempts INT UNSIGNED NOT NULL DEFAULT 0,
  ADD COLUMN updated_at DATETIME(3) NULL,
  ADD KEY idx_notices_status (status, kind, errcode);
