-- Recovery that runs by itself (issue 10).

-- A refund WeChat refused for now (SYSTEM_ERROR, NOT_ENOUGH) is sent again, with the same
-- out_refund_no, by the refund sweeper: when it may try next and why the last try failed.
ALTER TABLE refunds
  ADD COLUMN attempts INT UNSIGNED NOT NULL DEFAULT 0,
  ADD COLUMN next_attempt_at DATETIME(3) NULL,
  ADD COLUMN last_error VARCHAR(200) NULL;

-- Refunds handed to an operator (WeChat answered ABNORMAL: the fan's card refused the money).
-- state: open until an operator resolves it; resolution says how (see docs/api.md, ops).
CREATE TABLE refund_cases (
  refund_id BIGINT UNSIGNED NOT NULL,
  order_id BIGINT UNSIGNED NOT NULL,
  reason VARCHAR(16) NOT NULL,
  state VARCHAR(16) NOT NULL DEFAULT 'open',
  opened_at DATETIME(3) NOT NULL,
  resolved_at DATETIME(3) NULL,
  resolved_by VARCHAR(64) NULL,
  resolution VARCHAR(32) NULL,
  note VARCHAR(200) NULL,
  PRIMARY KEY (refund_id),
  KEY idx_refund_case_state (state, opened_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Messages that failed every consumer attempt and every re-drive: kept here for an operator.
-- state: parked, requeued (an operator sent it again), discarded.
CREATE TABLE dead_letters (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  queue VARCHAR(64) NOT NULL,
  message_id VARCHAR(64) NOT NULL,
  payload TEXT NOT NULL,
  error VARCHAR(500) NULL,
  redrives INT UNSIGNED NOT NULL,
  state VARCHAR(16) NOT NULL DEFAULT 'parked',
  parked_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  resolved_at DATETIME(3) NULL,
  resolved_by VARCHAR(64) NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_dead_letter (queue, message_id),
  KEY idx_dead_letter_state (state, parked_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
