import { Button, Tag } from 'antd';
import type { ForeignCurrencyPayment, OpsOverview, RefundCase, StuckRefund } from '@showtix/shared-types';
import { OpsTable, orderColumns, repairColumn, timeColumn, type Act } from './OpsTable';

type StuckPayment = OpsOverview['stuckPayments'][number];

const REFUND: Record<string, string> = {
  requested: '待提交',
  processing: '退款中',
  abnormal: '退款异常',
  closed: '退款关闭',
};
const CASE_REASON: Record<string, string> = {
  abnormal: '退款异常（银行卡）',
  stuck: '多次提交失败',
  closed: '退款被关闭（需重新处理）',
};

interface Props {
  d: OpsOverview | undefined;
  loading: boolean;
  act: Act;
  /** Opens the resolution of a refund case. */
  onResolve: (c: RefundCase) => void;
}

/** Payments without tickets and refunds that did not finish, each with its repair. */
export function StuckWork({ d, loading, act, onResolve }: Props) {
  return (
    <>
      <OpsTable<StuckPayment>
        title="已支付未出票"
        rowKey="orderNo"
        loading={loading}
        dataSource={d?.stuckPayments}
        columns={[
          ...orderColumns<StuckPayment>(120),
          timeColumn<StuckPayment>('支付时间', 'paidAt'),
          repairColumn<StuckPayment>(act, {
            label: '出票',
            question: '立即出票？',
            path: (o) => `/orders/${o.orderNo}/issue-tickets`,
            done: '已出票',
          }),
        ]}
      />
      <OpsTable<StuckRefund>
        title="未完成的退款"
        rowKey="refundId"
        loading={loading}
        dataSource={d?.stuckRefunds}
        columns={[
          ...orderColumns<StuckRefund>(),
          {
            title: '状态',
            dataIndex: 'status',
            width: 100,
            render: (s: string) => <Tag>{REFUND[s] ?? s}</Tag>,
          },
          { title: '失败次数', dataIndex: 'attempts', width: 90 },
          { title: '最近错误', dataIndex: 'lastError', ellipsis: true },
          timeColumn<StuckRefund>('申请时间', 'createdAt'),
          repairColumn<StuckRefund>(act, {
            label: '重试',
            question: '立即重试（向微信支付重新提交或查询）？',
            path: (r) => `/refunds/${r.refundId}/retry`,
            done: '已重试',
          }),
        ]}
      />
      <OpsTable<RefundCase>
        title="待人工处理的退款"
        rowKey="refundId"
        loading={loading}
        dataSource={d?.refundCases}
        columns={[
          ...orderColumns<RefundCase>(),
          { title: '原因', dataIndex: 'reason', width: 150, render: (r: string) => CASE_REASON[r] ?? r },
          timeColumn<RefundCase>('时间', 'openedAt'),
          {
            title: '',
            width: 100,
            render: (_, c) => (
              <Button size="small" type="primary" onClick={() => onResolve(c)}>
                处理
              </Button>
            ),
          },
        ]}
      />
      <ForeignCurrency d={d} loading={loading} act={act} />
    </>
  );
}

/** Payments in a foreign currency: refunded in full automatically, or by hand here. */
function ForeignCurrency({ d, loading, act }: Omit<Props, 'onResolve'>) {
  return (
    <OpsTable<ForeignCurrencyPayment>
      title="外币支付（自动全额退款）"
      rowKey="paymentId"
      loading={loading}
      dataSource={d?.foreignCurrency}
      columns={[
        { title: '订单号', dataIndex: 'orderNo' },
        { title: '微信支付单号', dataIndex: 'transactionId', ellipsis: true },
        { title: '金额', width: 130, render: (_, f) => `${(f.amountFen / 100).toFixed(2)} ${f.currency}` },
        {
          title: '退款',
          dataIndex: 'refundStatus',
          width: 100,
          render: (s: string | null) => (
            <Tag color={s ? undefined : 'red'}>{s ? (REFUND[s] ?? s) : '未发起'}</Tag>
          ),
        },
        timeColumn<ForeignCurrencyPayment>('收款时间', 'receivedAt'),
        repairColumn<ForeignCurrencyPayment>(act, {
          label: '退款',
          question: '立即向微信支付提交（或查询）这笔全额退款？',
          path: (f) => `/payments/${f.paymentId}/refund`,
          done: '已提交退款',
        }),
      ]}
    />
  );
}
