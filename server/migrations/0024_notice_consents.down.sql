ALTER TABLE notices
  DROP KEY idx_notices_status,
  DROP COLUMN updated_at,
  DROP COLUMN attempts,
  DROP COLUMN errmsg,
  DROP COLUMN errcode,
  DROP COLUMN order_id,
  DROP COLUMN template_id,
  DROP COLUMN kind,
  DROP COLUMN status;
DROP TABLE IF EXISTS notice_reminders;
DROP TABLE IF EXISTS notice_consent_requests;
DROP TABLE IF EXISTS notice_consents;
