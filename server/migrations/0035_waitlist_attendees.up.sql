-- The waiting list on real-name sessions (issue 16): an entry names its attendees when it joins
-- (one per unit), and its offer's order carries them as a purchase's does. Stored like
-- order_attendees (encrypted, masked, keyed hash). `live` mirrors the entry's (1 while it waits
-- or holds an offer, NULL once it ended), so the unique key keeps one ID in at most one live
-- entry of a session: one ID, one ticket counts the line too.
-- end_reason: why an entry ended (status 7) or passed on: 'attendee_taken' (an attendee got a
-- ticket meanwhile), 'limit' (purchase limit reached), 'sale_stopped'. NULL for the others.
CREATE TABLE waitlist_attendees (
  entry_id BIGINT UNSIGNED NOT NULL,
  position TINYINT UNSIGNED NOT NULL,
  session_id BIGINT UNSIGNED NOT NULL,
  id_hash CHAR(64) NOT NULL,
  live TINYINT UNSIGNED NULL DEFAULT 1,
  id_type VARCHAR(20) NOT NULL,
  name_masked VARCHAR(64) NOT NULL,
  id_masked VARCHAR(40) NOT NULL,
  name_enc VARCHAR(200) NOT NULL,
  id_number_enc VARCHAR(200) NOT NULL,
  PRIMARY KEY (entry_id, position),
  UNIQUE KEY uq_waitlist_attendee_live (session_id, id_hash, live),
  CONSTRAINT fk_waitlist_attendee_entry FOREIGN KEY (entry_id) REFERENCES waitlist_entries (id),
  CONSTRAINT chk_waitlist_attendee_live CHECK (live = 1 OR live IS NULL)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

ALTER TABLE waitlist_entries ADD COLUMN end_reason VARCHAR(32) NULL;
