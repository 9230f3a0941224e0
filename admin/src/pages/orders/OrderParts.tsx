import { Empty, Table, Timeline, Typography, type TableProps } from 'antd';
import type { AdminOrderDetail } from '@showtix/shared-types';
import { dateTimeSec } from '../../utils/format';
import { fenToYuan } from '../../utils/money';

const EXCHANGE_STATUS: Record<string, string> = {
  pending: '待支付差价',
  done: '已改签',
  failed: '未成功（已退款）',
  cancelled: '已取消',
};

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

/** 改签: the exchanges of the order (as the original or as the exchange order), when it has any. */
function ExchangesPart({ o }: { o: AdminOrderDetail }) {
  if (!o.exchanges?.length) return null;
  return (
    <Part
      heading="改签"
      rowKey="exchangeId"
      data-testid="order-exchanges"
      dataSource={o.exchanges}
      columns={[
        { title: '原订单', dataIndex: 'originalOrderNo' },
        { title: '改签订单', dataIndex: 'orderNo' },
        { title: '原票', dataIndex: 'oldTicketIds', render: (ids: string[]) => ids.join('、') },
        { title: '新票', dataIndex: 'newTicketIds', render: (ids: string[]) => ids.join('、') || '—' },
        {
          title: '差价',
          dataIndex: 'diffFen',
          render: (f: number) => (f < 0 ? `退 ${fenToYuan(-f)}` : fenToYuan(f)),
        },
        { title: '状态', dataIndex: 'status', render: (s: string) => EXCHANGE_STATUS[s] ?? s },
        { title: '时间', dataIndex: 'createdAt', render: dateTimeSec },
      ]}
    />
  );
}

/** The admins' trail on the order. */
function AuditPart({ o }: { o: AdminOrderDetail }) {
  return (
    <>
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
  );
}

/** The order drawer's parts under the summary: items, payments, tickets, refunds, admin trail. */
export function OrderParts({ o }: { o: AdminOrderDetail }) {
  return (
    <>
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
                      {b.revokedAt ? '已撤销' : '当前'} · 设备 {b.device} · {dateTimeSec(b.boundAt)} 绑定
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
      <ExchangesPart o={o} />
      <AuditPart o={o} />
    </>
  );
}
