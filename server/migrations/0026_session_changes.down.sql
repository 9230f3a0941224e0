DROP TABLE session_change_orders;
DROP TABLE session_changes;
ALTER TABLE show_sessions DROP COLUMN postponed_from, DROP COLUMN full_refund_until;
ALTER TABLE show_sessions DROP CONSTRAINT chk_session_status;
ALTER TABLE show_sessions ADD CONSTRAINT chk_session_status CHECK (status BETWEEN 1 AND 4);
