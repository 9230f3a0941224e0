import { Alert, Button, Checkbox, Form, Input, Modal } from 'antd';
import type { AdminOrderDetail } from '@showtix/shared-types';
import { fenToYuan } from '../../utils/money';
import type { useOrderRefund } from './useOrderRefund';

type Refund = ReturnType<typeof useOrderRefund>;

function refundWarning(r: Refund, o: AdminOrderDetail | undefined) {
  return r.perTicket
    ? `将向买家原路退回所选门票的票面价 ${fenToYuan(r.chosenFen)}（不收手续费），所选门票随即作废，座位重新开售；其余门票仍然有效。`
    : `将向买家原路退回 ${o ? fenToYuan(o.amountFen) : ''}（不收手续费），电子票随即作废，座位重新开售。`;
}

/** The refund dialog: whole order (paid) or chosen tickets (ticketed), with a reason. */
export function RefundModal({ r, o }: { r: Refund; o: AdminOrderDetail | undefined }) {
  return (
    <Modal
      title={r.perTicket ? '退票' : '全额退款'}
      open={r.refunding}
      onCancel={r.close}
      onOk={() => r.form.submit()}
      okText="确认退款"
      okButtonProps={
        { danger: true, loading: r.busy, 'data-testid': 'confirm-refund' } as React.ComponentProps<
          typeof Button
        >
      }
    >
      <Alert type="warning" showIcon title={refundWarning(r, o)} style={{ marginBottom: 12 }} />
      <Form
        form={r.form}
        layout="vertical"
        onFinish={r.refund}
        initialValues={r.perTicket ? { ticketIds: r.refundable.map((t) => t.ticketNo) } : {}}
      >
        {r.perTicket && (
          <Form.Item
            name="ticketIds"
            label="退哪几张票"
            rules={[{ required: true, type: 'array', min: 1, message: '请选择要退的门票' }]}
          >
            <Checkbox.Group
              data-testid="refund-tickets"
              options={r.refundable.map((t) => ({
                value: t.ticketNo,
                label: `${t.seatLabel}（${fenToYuan(t.priceFen)}）`,
              }))}
            />
          </Form.Item>
        )}
        <Form.Item name="reason" label="退款原因" rules={[{ required: true, message: '请填写退款原因' }]}>
          <Input.TextArea rows={3} maxLength={200} data-testid="refund-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
