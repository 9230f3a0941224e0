DROP TABLE IF EXISTS risk_flags;
DROP TABLE IF EXISTS blocklist;
DROP TABLE IF EXISTS user_attendees;
DROP TABLE IF EXISTS order_attendees;
DROP TABLE IF EXISTS attendee_claims;
DROP TABLE IF EXISTS user_show_quota;
ALTER TABLE users DROP COLUMN expired_streak;
ALTER TABLE shows DROP COLUMN show_purchase_limit;
