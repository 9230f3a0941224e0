-- The buyer's 联系手机 with each order: encrypted (AES-256-GCM, like attendee IDs), a masked copy
-- for display, and a keyed hash so support can find orders by the full number.
ALTER TABLE orders
  ADD COLUMN contact_phone_enc VARCHAR(128) NULL,
  ADD COLUMN contact_phone_masked VARCHAR(16) NULL,
  ADD COLUMN contact_phone_hash CHAR(64) NULL,
  ADD KEY idx_orders_contact_phone (contact_phone_hash);
