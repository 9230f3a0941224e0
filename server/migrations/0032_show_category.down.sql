ALTER TABLE shows DROP KEY idx_show_category;
ALTER TABLE shows DROP COLUMN category;
