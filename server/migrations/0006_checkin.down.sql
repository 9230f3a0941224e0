DROP TABLE IF EXISTS checkin_conflicts;
DROP TABLE IF EXISTS checkins;
