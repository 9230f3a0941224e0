DROP TABLE dead_letters;
DROP TABLE refund_cases;
ALTER TABLE refunds
  DROP COLUMN last_error,
  DROP COLUMN next_attempt_at,
  DROP COLUMN attempts;
