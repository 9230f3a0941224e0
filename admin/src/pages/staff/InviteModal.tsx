import { App, Form, Input, InputNumber, Space, Typography } from 'antd';
import type { InviteCreateInput } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { createInvite } from '../../api/staff';
import { FormModal } from '../../components/FormModal';
import { SearchSelect } from '../../components/SearchSelect';
import type { ShowOptions } from './showOptions';

interface InviteModalProps {
  showOptions: ShowOptions;
  open: boolean;
  setOpen: (open: boolean) => void;
  /** Reloads the invites after one is made. */
  created: () => Promise<void>;
}

/** 生成邀请码: the shows, how many may use it and for how long; the code is shown to copy. */
export function InviteModal({ showOptions, open, setOpen, created }: InviteModalProps) {
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<InviteCreateInput>();
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
      await created();
    } catch (e) {
      message.error(errorText(e, '生成失败'));
    }
  };
  return (
    <FormModal<InviteCreateInput>
      form={form}
      title="生成邀请码"
      open={open}
      // Cleared once closed, never as it finishes opening: an organiser (or a slow machine's
      // test) who starts choosing during the opening animation would lose the choice.
      afterOpenChange={(o) => !o && form.resetFields()}
      onClose={() => setOpen(false)}
      okText="生成"
      onFinish={create}
      initialValues={{ maxUses: 5, expiresInHours: 72 }}
    >
      <Form.Item name="showIds" label="负责演出" rules={[{ required: true, message: '请选择演出' }]}>
        <SearchSelect mode="multiple" options={showOptions} />
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
    </FormModal>
  );
}
