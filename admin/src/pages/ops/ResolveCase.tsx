import { App, Form, Input, Modal, Select, Typography } from 'antd';
import { REFUND_CASE_RESOLUTIONS, type RefundCase } from '@showtix/shared-types';
import { api, errorText } from '../../api/client';
import { fenToYuan } from '../../utils/money';
import { OPS } from './OpsTable';

const RESOLUTION: Record<string, string> = { paid_offline: '已线下退款', not_owed: '无需退款' };

/** Resolves a refund case: the operator's explicit decision, with a note (audited). */
export function ResolveCase({ c, done }: { c: RefundCase | undefined; done: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const submit = async (v: { resolution: string; note: string }) => {
    try {
      await api('POST', `${OPS}/refund-cases/${c!.refundId}/resolve`, v);
      message.success('已记录处理结果');
      done();
    } catch (e) {
      message.error(errorText(e, '操作失败'));
    }
  };
  return (
    <Modal
      title="处理退款异常"
      open={!!c}
      onCancel={done}
      onOk={() => form.submit()}
      okText="确认"
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        订单 {c?.orderNo}，退款 {c ? fenToYuan(c.amountFen) : ''}{' '}
        元。请先与购票人联系并完成退款，再记录处理结果。
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ resolution: 'paid_offline' }}>
        <Form.Item name="resolution" label="处理结果">
          <Select options={REFUND_CASE_RESOLUTIONS.map((r) => ({ value: r, label: RESOLUTION[r] }))} />
        </Form.Item>
        <Form.Item name="note" label="说明" rules={[{ required: true, message: '请填写说明' }]}>
          <Input maxLength={200} placeholder="如 已通过对公账户转账，流水号 ..." />
        </Form.Item>
      </Form>
    </Modal>
  );
}
