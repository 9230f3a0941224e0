import { useState } from 'react';
import { Form } from 'antd';
import type { AdminAccount } from '@showtix/shared-types';
import { listAdmins } from '../../api/admins';
import { useApi } from '../../api/useApi';
import { useSaveForm } from '../../api/useSaveForm';
import { NewButton, PageHeader } from '../../components/PageParts';
import { AdminModal, AdminTable } from './AdminParts';
import { saveAdmin, type AdminEditing, type AdminFields } from './adminForm';

export function AdminsPage() {
  const saveForm = useSaveForm();
  const list = useApi(() => listAdmins(), []);
  const [editing, setEditing] = useState<AdminEditing>(null);
  const [form] = Form.useForm();
  const close = () => setEditing(null);
  const save = (v: AdminFields) =>
    saveForm(() => saveAdmin(editing, v), { done: '已保存', close, reload: list.reload });
  const create = () => (form.resetFields(), form.setFieldsValue({ roles: ['operator'] }), setEditing('new'));
  const edit = (a: AdminAccount) => (form.resetFields(), form.setFieldsValue(a), setEditing(a));
  return (
    <>
      <PageHeader title="账号与权限">
        <NewButton onClick={create}>新建账号</NewButton>
      </PageHeader>
      <AdminTable loading={list.loading} items={list.data?.items} onEdit={edit} />
      <AdminModal form={form} editing={editing} onClose={close} onFinish={save} />
    </>
  );
}
