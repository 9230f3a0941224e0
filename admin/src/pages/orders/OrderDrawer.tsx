import { useState } from 'react';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Drawer,
  Empty,
  Form,
  Input,
  Modal,
  Spin,
  Table,
  Tag,
  Timeline,
  Typography,
  type TableProps,
} from 'antd';
import type { AdminOrderDetail } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { getOrder, refundOrder } from '../../api/orders';
import { useApi } from '../../api/useApi';
import { dateTimeSec, ORDER_STATUS } from '../../utils/format';
import { fenToYuan } from '../../utils/money';

const ACTION_LABEL: Record<string, string> = { 'order.refund': '管理员退款', 'order.export': '导出' };

/** One part of the order under its heading: a small table with all its rows. */
function Part<T extends object>({ heading, ...table }: { heading: string } & TableProps<T>) {
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 20 }}>
        {heading}
      </Typography.Title>
      <Table<T> size="small" pagination={false} {...table} />
    </>
  );
}

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
  const [form] = Form.useForm<{ reason: string }>();
  const refund = async ({ reason }: { reason: string }) => {
    setBusy(true);
    try {
      await refundOrder(orderNo!, reason);
      message.success('已提交全额退款，款项将原路退回');
      setRefunding(false);
      await reload();
      onChanged();
    } catch (e) {
      message.error(errorText(e, '退款失败'));
    } finally {
      setBusy(false);
    }
  };
  const canRefund =
    o && (o.status === 'paid' || o.status === 'ticketed') && !o.refunds.some((r) => r.status !== '已关闭');
  return (
    <Drawer
      title={`订单 ${orderNo ?? ''}`}
      size={720}
      open={!!orderNo}
      onClose={onClose}
      destroyOnHidden
      extra={
        canRefund && (
          <Button danger onClick={() => (form.resetFields(), setRefunding(true))} data-testid="refund-btn">
            全额退款
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
            <Part
              heading="票品"
              rowKey={(r) => r.seatId ?? `${r.zoneId}-${r.label}`}
              dataSource={o.items}
              columns={[
                { title: '位置', dataIndex: 'label' },
                { title: '票档', dataIndex: 'tierName' },
                { title: '票价', dataIndex: 'priceFen', align: 'right', render: fenToYuan },
              ]}
            />
            <Part
              heading="支付"
              rowKey="id"
              dataSource={o.payments}
              locale={{ emptyText: '暂无支付记录' }}
              columns={[
                { title: '微信支付单号', dataIndex: 'transactionId' },
                { title: '金额', dataIndex: 'amountFen', render: fenToYuan },
                { title: '已退', dataIndex: 'refundedFen', render: fenToYuan },
                { title: '状态', dataIndex: 'status' },
                { title: '时间', dataIndex: 'successTime', render: dateTimeSec },
              ]}
            />
            <Part
              heading="电子票"
              rowKey="ticketNo"
              dataSource={o.tickets}
              locale={{ emptyText: '尚未出票' }}
              columns={[
                { title: '票号', dataIndex: 'ticketNo' },
                { title: '位置', dataIndex: 'seatLabel' },
                { title: '状态', dataIndex: 'status' },
                { title: '出票时间', dataIndex: 'createdAt', render: dateTimeSec },
                {
                  title: '绑定手机',
                  dataIndex: 'bindings',
                  render: (bs: AdminOrderDetail['tickets'][number]['bindings']) =>
                    bs.length === 0
                      ? '未绑定'
                      : bs.map((b) => (
                          <div key={b.id} data-testid="ticket-binding">
                            {b.revokedAt ? '已撤销' : '当前'} · 设备 {b.device} · {dateTimeSec(b.boundAt)}{' '}
                            绑定
                            {b.revokedAt
                              ? `，${dateTimeSec(b.revokedAt)} ${b.revokedReason === 'rebind' ? '换机撤销' : '撤销'}`
                              : ''}
                          </div>
                        )),
                },
              ]}
            />
            <Part
              heading="退款"
              rowKey="id"
              dataSource={o.refunds}
              locale={{ emptyText: '无退款' }}
              columns={[
                { title: '退款单号', dataIndex: 'outRefundNo' },
                { title: '退款金额', dataIndex: 'amountFen', render: fenToYuan },
                { title: '手续费', dataIndex: 'feeFen', render: fenToYuan },
                { title: '状态', dataIndex: 'status' },
                { title: '发起人', dataIndex: 'requestedBy' },
                { title: '原因', dataIndex: 'reason' },
              ]}
            />
            <Typography.Title level={5} style={{ marginTop: 20 }}>
              操作记录
            </Typography.Title>
            {o.audit.length ? (
              <Timeline
                items={o.audit.map((a) => ({
                  content: (
                    <>
                      <b>{a.actor}</b> {ACTION_LABEL[a.action] ?? a.action}{' '}
                      <Typography.Text type="secondary">{dateTimeSec(a.createdAt)}</Typography.Text>
                      {(a.after as { reason?: string } | null)?.reason && (
                        <div>原因：{(a.after as { reason: string }).reason}</div>
                      )}
                    </>
                  ),
                }))}
              />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无后台操作" />
            )}
          </>
        )
      )}
      <Modal
        title="全额退款"
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
          title={`将向买家原路退回 ${o ? fenToYuan(o.amountFen) : ''}（不收手续费），电子票随即作废，座位重新开售。`}
          style={{ marginBottom: 12 }}
        />
        <Form form={form} layout="vertical" onFinish={refund}>
          <Form.Item name="reason" label="退款原因" rules={[{ required: true, message: '请填写退款原因' }]}>
            <Input.TextArea rows={3} maxLength={200} data-testid="refund-reason" />
          </Form.Item>
        </Form>
      </Modal>
    </Drawer>
  );
}
