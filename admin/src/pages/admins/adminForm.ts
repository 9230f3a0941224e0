import { ADMIN_ROLES, type AdminAccount, type AdminCreateInput, type AdminRole } from '@showtix/shared-types';
import { createAdmin, updateAdmin } from '../../api/admins';
import { ROLE_LABEL } from '../../utils/format';

export interface AdminFields {
  username?: string;
  displayName?: string;
  password?: string;
  roles: AdminRole[];
  disabled?: boolean;
}

export type AdminEditing = AdminAccount | 'new' | null;

const ROLE_HELP: Record<string, string> = {
  admin: '全部权限，含账号管理',
  operator: '场馆、演出、场次、看板、订单与退款',
  staff_manager: '检票人员与邀请码',
};
export const roleOptions = ADMIN_ROLES.map((r) => ({
  value: r,
  label: `${ROLE_LABEL[r]}（${ROLE_HELP[r]}）`,
}));

/** Creates the new account, or updates the edited one (a blank password keeps the old one). */
export async function saveAdmin(editing: AdminEditing, v: AdminFields): Promise<void> {
  if (editing === 'new') await createAdmin(v as AdminCreateInput);
  else if (editing)
    await updateAdmin(editing.id, {
      displayName: v.displayName,
      roles: v.roles,
      disabled: v.disabled,
      ...(v.password ? { password: v.password } : {}),
    });
}
