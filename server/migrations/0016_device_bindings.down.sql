ALTER TABLE checkins DROP COLUMN kind;
ALTER TABLE show_sessions DROP COLUMN rebind_freeze_minutes;
DROP TABLE ticket_bindings;
