ALTER TABLE venues
  DROP CONSTRAINT chk_venue_coordinates,
  DROP CONSTRAINT chk_venue_longitude,
  DROP CONSTRAINT chk_venue_latitude,
  DROP COLUMN longitude,
  DROP COLUMN latitude;
