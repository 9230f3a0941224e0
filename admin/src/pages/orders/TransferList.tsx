import { Table, Tag, Typography } from 'antd';
import type { AdminTransferView, TransferState } from '@showtix/shared-types';
import { orderTransfers } from '../../api/transfers';
import { useApi } from '../../api/useApi';
import { dateTimeSec } from '../../utils/format';

const STATE: Record<TransferState, { label: string; color: string }> = {
  open: { label: '待接收', color: 'processing' },
  accepted: { label: '已接收', color: 'success' },
  cancelled: { label: '已取消', color: 'default' },
  expired: { label: '已过期', color: 'warning' },
};

/** One side of a transfer: the ticket, then whose it is (the user and the real-name attendee). */
function Side(p: { ticketNo: string; userId: string | null; attendee: AdminTransferView['fromAttendee'] }) {
  return (
    <>
      {p.ticketNo}
      <br />
      <Typography.Text type="secondary">
        用户 {p.userId} {p.attendee ? `${p.attendee.name} ${p.attendee.idNumber}` : ''}
      </Typography.Text>
    </>
  );
}

/** The order's ticket transfers (转赠): who gave which ticket to whom, and when. */
export function TransferList({ orderNo }: { orderNo: string }) {
  const { data } = useApi(() => orderTransfers(orderNo), [orderNo]);
  const items = data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        转赠记录
      </Typography.Title>
      <Table<AdminTransferView>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={items}
        data-testid="transfer-list"
        columns={[
          {
            title: '状态',
            dataIndex: 'state',
            render: (s: TransferState) => <Tag color={STATE[s].color}>{STATE[s].label}</Tag>,
          },
          {
            title: '转出门票',
            render: (_, t) => (
              <Side ticketNo={t.fromTicketNo} userId={t.giverUserId} attendee={t.fromAttendee} />
            ),
          },
          {
            title: '接收门票',
            render: (_, t) =>
              t.toTicketNo ? (
                <Side ticketNo={t.toTicketNo} userId={t.receiverUserId} attendee={t.toAttendee} />
              ) : (
                '—'
              ),
          },
          { title: '发起', dataIndex: 'createdAt', render: (v: string) => dateTimeSec(v) },
          {
            title: '结束',
            render: (_, t) => (t.closedAt ? dateTimeSec(t.closedAt) : `截止 ${dateTimeSec(t.expiresAt)}`),
          },
        ]}
      />
    </>
  );
}
