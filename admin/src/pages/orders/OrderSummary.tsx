import { Descriptions, Tag, Typography } from 'antd';
import type { AdminOrderDetail } from '@showtix/shared-types';
import { dateTimeSec, ORDER_STATUS } from '../../utils/format';
import { fenToYuan } from '../../utils/money';

/** Rows shown only when the order has them: cancellation and attendees. */
function optionalItems(o: AdminOrderDetail) {
  return [
    ...(o.cancelledAt
      ? [{ label: '取消', children: `${dateTimeSec(o.cancelledAt)}（${o.cancelReason ?? ''}）`, span: 2 }]
      : []),
    ...(o.attendees.length
      ? [{ label: '观演人', children: o.attendees.map((a) => `${a.name} ${a.idNumber}`).join('；'), span: 2 }]
      : []),
  ];
}

/** The order's head facts: status, amount, show, buyer and times. */
export function OrderSummary({ o }: { o: AdminOrderDetail }) {
  return (
    <Descriptions
      size="small"
      column={2}
      bordered
      items={[
        {
          label: '状态',
          children: <Tag color={ORDER_STATUS[o.status].color}>{ORDER_STATUS[o.status].label}</Tag>,
        },
        { label: '金额', children: <Typography.Text strong>{fenToYuan(o.amountFen)}</Typography.Text> },
        { label: '演出', children: o.showTitle, span: 2 },
        { label: '场次', children: dateTimeSec(o.sessionStartsAt) },
        { label: '张数', children: o.quantity },
        { label: '买家', children: `${o.buyer.nickname ?? '微信用户'}（ID ${o.buyer.userId}）` },
        { label: 'OpenID', children: o.buyer.openidMasked },
        { label: '联系手机', children: o.contactPhone ?? '—', span: 2 },
        { label: '下单时间', children: dateTimeSec(o.createdAt) },
        { label: '支付时间', children: dateTimeSec(o.paidAt) },
        ...optionalItems(o),
      ]}
    />
  );
}
