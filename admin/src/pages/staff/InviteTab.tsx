import { App, Button, Form, Input, InputNumber, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { InviteCreateInput, StaffInvite } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { createInvite, listInvites, revokeInvite } from '../../api/staff';
import { useApi } from '../../api/useApi';
import { ConfirmButton } from '../../components/ConfirmButton';
import { dateTime } from '../../utils/format';
import type { ShowOptions } from './showOptions';

interface InviteTabProps {
  showOptions: ShowOptions;
  /** The "generate" dialog; the staff tab's add button opens it too. */
  open: boolean;
  setOpen: (open: boolean) => void;
}

/**
 * Staff join by invite only: the organiser picks the shows, sends the code, and the person enters it
 * in the mini-program (nobody can see a fan's user ID, and every nickname is 微信用户).
 */
export function InviteTab({ showOptions, open, setOpen }: InviteTabProps) {
  const { message, modal } = App.useApp();
  const invites = useApi(() => listInvites(), []);
  const [form] = Form.useForm();
  const create = async (v: InviteCreateInput) => {
    try {
      const inv = await createInvite(v);
      modal.success({
        title: '邀请码已生成',
        content: (
          <>
            <Typography.Title level={2} copyable style={{ letterSpacing: 4, fontFamily: 'monospace' }}>
              {inv.code}
            </Typography.Title>
            请把邀请码发给检票人员，对方在小程序中输入后即成为所选演出的检票员。
          </>
        ),
      });
      setOpen(false);
      await invites.reload();
    } catch (e) {
      message.error(errorText(e, '生成失败'));
    }
  };
  const revoke = async (code: string) => {
    await revokeInvite(code);
    await invites.reload();
  };
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)}>
          生成邀请码
        </Button>
      </Space>
      <Table<StaffInvite>
        rowKey="code"
        loading={invites.loading}
        dataSource={invites.data?.items}
        pagination={false}
        columns={[
          {
            title: '邀请码',
            dataIndex: 'code',
            render: (c: string) => (
              <Typography.Text copyable style={{ fontFamily: 'monospace', fontSize: 15 }}>
                {c}
              </Typography.Text>
            ),
          },
          {
            title: '演出',
            dataIndex: 'shows',
            render: (s: StaffInvite['shows']) => s.map((x) => <Tag key={x.id}>{x.title}</Tag>),
          },
          { title: '已用 / 上限', render: (_, i) => `${i.uses} / ${i.maxUses}` },
          { title: '备注', dataIndex: 'note' },
          { title: '有效期至', dataIndex: 'expiresAt', render: dateTime },
          {
            title: '状态',
            render: (_, i) =>
              i.revoked ? (
                <Tag>已作废</Tag>
              ) : Date.parse(i.expiresAt) < Date.now() ? (
                <Tag>已过期</Tag>
              ) : i.uses >= i.maxUses ? (
                <Tag>已用完</Tag>
              ) : (
                <Tag color="green">有效</Tag>
              ),
          },
          {
            title: '',
            width: 80,
            render: (_, i) =>
              !i.revoked && (
                <ConfirmButton question="作废该邀请码？" danger action={() => revoke(i.code)}>
                  作废
                </ConfirmButton>
              ),
          },
        ]}
      />
      <Modal
        title="生成邀请码"
        open={open}
        destroyOnHidden
        // Cleared once closed, never as it finishes opening: an organiser (or a slow machine's
        // test) who starts choosing during the opening animation would lose the choice.
        afterOpenChange={(o) => !o && form.resetFields()}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        okText="生成"
      >
        <Form
          form={form}
          layout="vertical"
          onFinish={create}
          initialValues={{ maxUses: 5, expiresInHours: 72 }}
        >
          <Form.Item name="showIds" label="负责演出" rules={[{ required: true, message: '请选择演出' }]}>
            <Select mode="multiple" showSearch={{ optionFilterProp: 'label' }} options={showOptions} />
          </Form.Item>
          <Space>
            <Form.Item name="maxUses" label="可使用人数">
              <InputNumber min={1} max={1000} />
            </Form.Item>
            <Form.Item name="expiresInHours" label="有效期">
              <InputNumber min={1} max={2160} suffix="小时" />
            </Form.Item>
          </Space>
          <Form.Item name="note" label="备注">
            <Input maxLength={100} placeholder="如 南门检票组" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
