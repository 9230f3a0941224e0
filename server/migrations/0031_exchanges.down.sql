DROP TABLE exchange_items;
DROP TABLE exchanges;
ALTER TABLE shows DROP COLUMN exchange_allowed, DROP COLUMN exchange_cutoff_minutes;
