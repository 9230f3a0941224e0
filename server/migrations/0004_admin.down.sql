DROP TABLE IF EXISTS staff_invite_redemptions;
DROP TABLE IF EXISTS staff_invites;
DROP TABLE IF EXISTS staff_assignments;
DROP TABLE IF EXISTS admin_audit_log;
DROP TABLE IF EXISTS admin_sessions;
DROP TABLE IF EXISTS admin_users;
