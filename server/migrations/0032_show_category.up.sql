-- A show's category (issue 17 #13): one of the short codes of SHOW_CATEGORIES in shared-types
-- (concert, theatre, music, dance, opera, comedy, sports, kids, other). Shows made before it
-- are 'other' until the organiser picks one. The fan's list filters on it (GET /shows?category=).
ALTER TABLE shows ADD COLUMN category VARCHAR(16) NOT NULL DEFAULT 'other';
ALTER TABLE shows ADD KEY idx_show_category (category);
