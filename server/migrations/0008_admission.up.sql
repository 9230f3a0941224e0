-- The waiting-room admission token an order used: a buyer who cancels gets the turn back.
ALTER TABLE orders ADD COLUMN admission_jti VARCHAR(32) NULL;
