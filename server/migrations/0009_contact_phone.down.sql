ALTER TABLE orders
  DROP KEY idx_orders_contact_phone,
  DROP COLUMN contact_phone_hash,
  DROP COLUMN contact_phone_masked,
  DROP COLUMN contact_phone_enc;
