ALTER TABLE orders DROP COLUMN admission_jti;
