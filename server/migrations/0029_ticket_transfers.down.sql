-- Refuses (duplicate key) once an item has two tickets: transfers cannot be undone by a migration.
DROP TABLE ticket_transfers;
ALTER TABLE tickets
  ADD UNIQUE KEY uk_ticket_item (order_item_id),
  DROP KEY idx_ticket_item,
  DROP KEY uk_ticket_transferred_from,
  DROP KEY uk_ticket_live_item,
  DROP COLUMN transferred_from,
  DROP COLUMN live_item_id;
DROP TABLE show_transfer_settings;
