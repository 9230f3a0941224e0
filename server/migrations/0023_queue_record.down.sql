DROP TABLE IF EXISTS queue_entries;
DROP TABLE IF EXISTS queue_rooms;
