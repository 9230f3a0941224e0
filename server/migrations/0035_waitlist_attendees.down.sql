ALTER TABLE waitlist_entries DROP COLUMN end_reason;
DROP TABLE waitlist_attendees;
