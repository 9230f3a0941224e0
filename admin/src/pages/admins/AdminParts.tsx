import { Button, Checkbox, Form, Input, Switch, Tag, type FormInstance } from 'antd';
import { PASSWORD_MIN, type AdminAccount } from '@showtix/shared-types';
import { dateTime, ROLE_LABEL } from '../../utils/format';
import { FormModal } from '../../components/FormModal';
import { ListCard } from '../../components/PageParts';
import { roleOptions, type AdminEditing, type AdminFields } from './adminForm';

interface TableProps {
  loading: boolean;
  items?: AdminAccount[];
  onEdit: (a: AdminAccount) => void;
}

export function AdminTable({ loading, items, onEdit }: TableProps) {
  return (
    <ListCard<AdminAccount>
      loading={loading}
      dataSource={items}
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
            <Button size="small" onClick={() => onEdit(a)}>
              编辑
            </Button>
          ),
        },
      ]}
    />
  );
}

interface ModalProps {
  form: FormInstance;
  editing: AdminEditing;
  onClose: () => void;
  onFinish: (v: AdminFields) => unknown;
}

export function AdminModal({ form, editing, onClose, onFinish }: ModalProps) {
  const isNew = editing === 'new';
  return (
    <FormModal
      form={form}
      title={isNew ? '新建账号' : '编辑账号'}
      open={!!editing}
      onClose={onClose}
      okText="保存"
      onFinish={onFinish}
    >
      {isNew && (
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
        label={isNew ? '密码' : '重置密码（留空不修改）'}
        rules={[{ required: isNew, min: PASSWORD_MIN, message: `至少 ${PASSWORD_MIN} 位` }]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="roles" label="角色" rules={[{ required: true, message: '至少选择一个角色' }]}>
        <Checkbox.Group options={roleOptions} style={{ display: 'flex', flexDirection: 'column', gap: 6 }} />
      </Form.Item>
      {!isNew && (
        <Form.Item name="disabled" label="停用账号" valuePropName="checked">
          <Switch />
        </Form.Item>
      )}
    </FormModal>
  );
}
