-- Staff invite codes were written into the audit log (entity id of staff.invite and
-- staff.invite_revoke, `code` of staff.redeem) and into staff_assignments.created_by, where
-- operators could read and redeem them. Replace each with its reference, inv_ + the first 10 hex
-- digits of SHA-256(code), as the server now writes (admin/staff/service.ts inviteRef).
UPDATE admin_audit_log
   SET entity_id = CONCAT('inv_', LEFT(SHA2(entity_id, 256), 10))
 WHERE entity_type = 'invite' AND entity_id NOT LIKE 'inv\_%';

UPDATE admin_audit_log
   SET after_json = JSON_REMOVE(
         JSON_SET(after_json, '$.invite',
                  CONCAT('inv_', LEFT(SHA2(JSON_UNQUOTE(JSON_EXTRACT(after_json, '$.code')), 256), 10))),
         '$.code')
 WHERE action = 'staff.redeem' AND JSON_EXTRACT(after_json, '$.code') IS NOT NULL;

UPDATE staff_assignments
   SET created_by = CONCAT('invite:inv_', LEFT(SHA2(SUBSTRING(created_by, 8), 256), 10))
 WHERE created_by LIKE 'invite:%' AND created_by NOT LIKE 'invite:inv\_%';
