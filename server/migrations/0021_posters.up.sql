-- Uploaded posters live in the database, shared by every instance (before: one instance's disk).
-- Named by content hash and extension; a stored poster never changes, so it is served as immutable.
CREATE TABLE posters (
  name VARCHAR(40) NOT NULL PRIMARY KEY,
  content_type VARCHAR(32) NOT NULL,
  bytes INT UNSIGNED NOT NULL,
  body MEDIUMBLOB NOT NULL,
  created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
