import { Tag, Typography, type TableColumnsType } from 'antd';
import type { AdminOrderRow } from '@showtix/shared-types';
import { dateTime, ORDER_STATUS } from '../../utils/format';
import { fenToYuan } from '../../utils/money';

function Buyer({ r }: { r: AdminOrderRow }) {
  return (
    <>
      {r.buyer.nickname ?? '微信用户'}
      <br />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        ID {r.buyer.userId}
        {r.contactPhone && ` · ${r.contactPhone}`}
      </Typography.Text>
    </>
  );
}

/** The order list's columns (a row opens the order's drawer). */
export const ORDER_COLUMNS: TableColumnsType<AdminOrderRow> = [
  {
    title: '订单号',
    dataIndex: 'orderNo',
    width: 250,
    render: (v: string) => (
      <Typography.Text copyable={{ text: v }} style={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
        {v}
      </Typography.Text>
    ),
  },
  { title: '演出', dataIndex: 'showTitle', ellipsis: true },
  { title: '场次', dataIndex: 'sessionStartsAt', width: 150, render: dateTime },
  { title: '买家', dataIndex: 'buyer', render: (_: AdminOrderRow['buyer'], r) => <Buyer r={r} /> },
  {
    title: '观演人',
    dataIndex: 'attendees',
    render: (a: AdminOrderRow['attendees']) =>
      a.map((x) => (
        <div key={x.idNumber} style={{ fontSize: 12 }}>
          {x.name} {x.idNumber}
        </div>
      )),
  },
  { title: '张数', dataIndex: 'quantity', width: 60, align: 'right' },
  { title: '金额', dataIndex: 'amountFen', width: 110, align: 'right', render: fenToYuan },
  {
    title: '状态',
    dataIndex: 'status',
    width: 90,
    render: (s: AdminOrderRow['status']) => <Tag color={ORDER_STATUS[s].color}>{ORDER_STATUS[s].label}</Tag>,
  },
  { title: '下单时间', dataIndex: 'createdAt', width: 150, render: dateTime },
];
