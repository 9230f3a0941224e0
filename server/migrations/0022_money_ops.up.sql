-- The operations page lists money taken in another currency until its refund succeeds, found by
-- outcome; the admission-use purge deletes expired rows by expiry (batched, oldest first).
ALTER TABLE payments ADD KEY idx_payment_outcome (outcome);
ALTER TABLE admission_uses ADD KEY idx_admission_expiry (expires_at);
