ALTER TABLE admission_uses DROP KEY idx_admission_expiry;
ALTER TABLE payments DROP KEY idx_payment_outcome;
