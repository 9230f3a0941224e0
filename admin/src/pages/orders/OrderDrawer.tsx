import { useState } from 'react';
import {
  Alert,
  App,
  Button,
  Checkbox,
  Descriptions,
  Drawer,
  Form,
  Input,
  Modal,
  Spin,
  Tag,
  Typography,
} from 'antd';
import { errorText } from '../../api/client';
import { getOrder, refundOrder } from '../../api/orders';
import { useApi } from '../../api/useApi';
import { dateTimeSec, ORDER_STATUS } from '../../utils/format';
import { fenToYuan } from '../../utils/money';
import { OrderParts } from './OrderParts';
import { TransferList } from './TransferList';

export function OrderDrawer({
  orderNo,
  onClose,
  onChanged,
}: {
  orderNo: string | undefined;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { message } = App.useApp();
  const {
    data: o,
    loading,
    reload,
  } = useApi(() => (orderNo ? getOrder(orderNo) : Promise.resolve(undefined)), [orderNo]);
  const [refunding, setRefunding] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ reason: string; ticketIds?: string[] }>();
  // Tickets an operator may refund one by one: valid ones (refunding or voided ones are taken).
  const refundable = o?.tickets.filter((t) => t.status === '有效') ?? [];
  const chosen: string[] | undefined = Form.useWatch('ticketIds', form);
  const chosenFen = refundable
    .filter((t) => chosen?.includes(t.ticketNo))
    .reduce((sum, t) => sum + t.priceFen, 0);
  const refund = async ({ reason, ticketIds }: { reason: string; ticketIds?: string[] }) => {
    setBusy(true);
    try {
      // A ticketed order names the tickets chosen; a paid one (no tickets yet) is refunded whole.
      await refundOrder(orderNo!, reason, ticketIds);
      message.success(
        ticketIds
          ? `已提交 ${ticketIds.length} 张门票的退款，款项将原路退回`
          : '已提交全额退款，款项将原路退回',
      );
      setRefunding(false);
      await reload();
      onChanged();
    } catch (e) {
      message.error(errorText(e, '退款失败'));
    } finally {
      setBusy(false);
    }
  };
  // A paid order has no tickets yet: it is refunded whole. A ticketed one, ticket by ticket.
  const perTicket = o?.status === 'ticketed' && refundable.length > 0;
  const canRefund =
    o && ((o.status === 'paid' && !o.refunds.some((r) => r.status !== '已关闭')) || perTicket);
  // Every valid ticket chosen at first (the Form's initial values; reset on each opening).
  const open = () => (form.resetFields(), setRefunding(true));
  return (
    <Drawer
      title={`订单 ${orderNo ?? ''}`}
      size={720}
      open={!!orderNo}
      onClose={onClose}
      destroyOnHidden
      extra={
        canRefund && (
          <Button danger onClick={open} data-testid="refund-btn">
            {perTicket ? '退票' : '全额退款'}
          </Button>
        )
      }
    >
      {loading && !o ? (
        <Spin />
      ) : (
        o && (
          <>
            <Descriptions
              size="small"
              column={2}
              bordered
              items={[
                {
                  label: '状态',
                  children: <Tag color={ORDER_STATUS[o.status].color}>{ORDER_STATUS[o.status].label}</Tag>,
                },
                {
                  label: '金额',
                  children: <Typography.Text strong>{fenToYuan(o.amountFen)}</Typography.Text>,
                },
                { label: '演出', children: o.showTitle, span: 2 },
                { label: '场次', children: dateTimeSec(o.sessionStartsAt) },
                { label: '张数', children: o.quantity },
                { label: '买家', children: `${o.buyer.nickname ?? '微信用户'}（ID ${o.buyer.userId}）` },
                { label: 'OpenID', children: o.buyer.openidMasked },
                { label: '联系手机', children: o.contactPhone ?? '—', span: 2 },
                { label: '下单时间', children: dateTimeSec(o.createdAt) },
                { label: '支付时间', children: dateTimeSec(o.paidAt) },
                ...(o.cancelledAt
                  ? [
                      {
                        label: '取消',
                        children: `${dateTimeSec(o.cancelledAt)}（${o.cancelReason ?? ''}）`,
                        span: 2,
                      },
                    ]
                  : []),
                ...(o.attendees.length
                  ? [
                      {
                        label: '观演人',
                        children: o.attendees.map((a) => `${a.name} ${a.idNumber}`).join('；'),
                        span: 2,
                      },
                    ]
                  : []),
              ]}
            />
            <OrderParts o={o} />
            <TransferList orderNo={o.orderNo} />
          </>
        )
      )}
      <Modal
        title={perTicket ? '退票' : '全额退款'}
        open={refunding}
        onCancel={() => setRefunding(false)}
        onOk={() => form.submit()}
        okText="确认退款"
        okButtonProps={
          { danger: true, loading: busy, 'data-testid': 'confirm-refund' } as React.ComponentProps<
            typeof Button
          >
        }
      >
        <Alert
          type="warning"
          showIcon
          title={
            perTicket
              ? `将向买家原路退回所选门票的票面价 ${fenToYuan(chosenFen)}（不收手续费），所选门票随即作废，座位重新开售；其余门票仍然有效。`
              : `将向买家原路退回 ${o ? fenToYuan(o.amountFen) : ''}（不收手续费），电子票随即作废，座位重新开售。`
          }
          style={{ marginBottom: 12 }}
        />
        <Form
          form={form}
          layout="vertical"
          onFinish={refund}
          initialValues={perTicket ? { ticketIds: refundable.map((t) => t.ticketNo) } : {}}
        >
          {perTicket && (
            <Form.Item
              name="ticketIds"
              label="退哪几张票"
              rules={[{ required: true, type: 'array', min: 1, message: '请选择要退的门票' }]}
            >
              <Checkbox.Group
                data-testid="refund-tickets"
                options={refundable.map((t) => ({
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
    </Drawer>
  );
}
