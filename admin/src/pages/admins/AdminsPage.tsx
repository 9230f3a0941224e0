import { useState } from 'react';
import { Button, Checkbox, Form, Input, Switch, Tag } from 'antd';
import {
  ADMIN_ROLES,
  PASSWORD_MIN,
  type AdminAccount,
  type AdminCreateInput,
  type AdminRole,
} from '@showtix/shared-types';
import { createAdmin, listAdmins, updateAdmin } from '../../api/admins';
import { useApi } from '../../api/useApi';
import { useSaveForm } from '../../api/useSaveForm';
import { dateTime, ROLE_LABEL } from '../../utils/format';
import { FormModal } from '../../components/FormModal';
import { ListCard, NewButton, PageHeader } from '../../components/PageParts';

const ROLE_HELP: Record<string, string> = {
  admin: '全部权限，含账号管理',
  operator: '场馆、演出、场次、看板、订单与退款',
  staff_manager: '检票人员与邀请码',
};
const roleOptions = ADMIN_ROLES.map((r) => ({ value: r, label: `${ROLE_LABEL[r]}（${ROLE_HELP[r]}）` }));

export function AdminsPage() {
  const saveForm = useSaveForm();
  const list = useApi(() => listAdmins(), []);
  const [editing, setEditing] = useState<AdminAccount | 'new' | null>(null);
  const [form] = Form.useForm();
  const save = (v: {
    username?: string;
    displayName?: string;
    password?: string;
    roles: AdminRole[];
    disabled?: boolean;
  }) =>
    saveForm(
      async () => {
        if (editing === 'new') await createAdmin(v as AdminCreateInput);
        else if (editing)
          await updateAdmin(editing.id, {
            displayName: v.displayName,
            roles: v.roles,
            disabled: v.disabled,
            ...(v.password ? { password: v.password } : {}),
          });
      },
      { done: '已保存', close: () => setEditing(null), reload: list.reload },
    );
  return (
    <>
      <PageHeader title="账号与权限">
        <NewButton
          onClick={() => (
            form.resetFields(),
            form.setFieldsValue({ roles: ['operator'] }),
            setEditing('new')
          )}
        >
          新建账号
        </NewButton>
      </PageHeader>
      <ListCard<AdminAccount>
        loading={list.loading}
        dataSource={list.data?.items}
        pagination={false}
        columns={[
          { title: '用户名', dataIndex: 'username' },
          { title: '姓名', dataIndex: 'displayName' },
          {
            title: '角色',
            dataIndex: 'roles',
            render: (r: string[]) =>
              r.map((x) => (
                <Tag key={x} color={x === 'admin' ? 'red' : 'blue'}>
                  {ROLE_LABEL[x]}
                </Tag>
              )),
          },
          {
            title: '状态',
            dataIndex: 'disabled',
            render: (d: boolean) => (d ? <Tag>已停用</Tag> : <Tag color="green">正常</Tag>),
          },
          { title: '最近登录', dataIndex: 'lastLoginAt', render: dateTime },
          {
            title: '',
            width: 80,
            render: (_, a) => (
              <Button
                size="small"
                onClick={() => (form.resetFields(), form.setFieldsValue(a), setEditing(a))}
              >
                编辑
              </Button>
            ),
          },
        ]}
      />
      <FormModal
        form={form}
        title={editing === 'new' ? '新建账号' : '编辑账号'}
        open={!!editing}
        onClose={() => setEditing(null)}
        okText="保存"
        onFinish={save}
      >
        {editing === 'new' && (
          <Form.Item
            name="username"
            label="用户名"
            rules={[
              { required: true, pattern: /^[A-Za-z0-9_.-]{3,64}$/, message: '3-64 位字母、数字或 _ . -' },
            ]}
          >
            <Input autoComplete="off" />
          </Form.Item>
        )}
        <Form.Item name="displayName" label="姓名">
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item
          name="password"
          label={editing === 'new' ? '密码' : '重置密码（留空不修改）'}
          rules={[{ required: editing === 'new', min: PASSWORD_MIN, message: `至少 ${PASSWORD_MIN} 位` }]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="roles" label="角色" rules={[{ required: true, message: '至少选择一个角色' }]}>
          <Checkbox.Group
            options={roleOptions}
            style={{ display: 'flex', flexDirection: 'column', gap: 6 }}
          />
        </Form.Item>
        {editing !== 'new' && (
          <Form.Item name="disabled" label="停用账号" valuePropName="checked">
            <Switch />
          </Form.Item>
        )}
      </FormModal>
    </>
  );
}
