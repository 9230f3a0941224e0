import { Form, Input, Select, Typography } from 'antd';
import { REFUND_CASE_RESOLUTIONS, type RefundCase } from '@showtix/shared-types';
import { api } from '../../api/client';
import { useSaveForm } from '../../api/useSaveForm';
import { FormModal } from '../../components/FormModal';
import { fenToYuan } from '../../utils/money';
import { OPS } from './OpsTable';

const RESOLUTION: Record<string, string> = { paid_offline: '已线下退款', not_owed: '无需退款' };

interface Resolution {
  resolution: string;
  note: string;
}

/** Resolves a refund case: the operator's explicit decision, with a note (audited). */
export function ResolveCase({ c, done }: { c: RefundCase | undefined; done: () => void }) {
  const saveForm = useSaveForm();
  const [form] = Form.useForm<Resolution>();
  const submit = (v: Resolution) =>
    saveForm(() => api('POST', `${OPS}/refund-cases/${c!.refundId}/resolve`, v), {
      done: '已记录处理结果',
      close: done,
      failed: '操作失败',
    });
  return (
    <FormModal<Resolution>
      form={form}
      title="处理退款异常"
      open={!!c}
      onClose={done}
      okText="确认"
      onFinish={submit}
      initialValues={{ resolution: 'paid_offline' }}
      intro={
        <Typography.Paragraph type="secondary">
          订单 {c?.orderNo}，退款 {c ? fenToYuan(c.amountFen) : ''}{' '}
          元。请先与购票人联系并完成退款，再记录处理结果。
        </Typography.Paragraph>
      }
    >
      <Form.Item name="resolution" label="处理结果">
        <Select options={REFUND_CASE_RESOLUTIONS.map((r) => ({ value: r, label: RESOLUTION[r] }))} />
      </Form.Item>
      <Form.Item name="note" label="说明" rules={[{ required: true, message: '请填写说明' }]}>
        <Input maxLength={200} placeholder="如 已通过对公账户转账，流水号 ..." />
      </Form.Item>
    </FormModal>
  );
}
