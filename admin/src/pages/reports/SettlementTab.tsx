import { Alert, Table, Typography } from 'antd';
import type { SettlementReport, SettlementRow } from '@showtix/shared-types';
import { dateTime } from '../../utils/format';
import { fenToYuan } from '../../utils/money';

/** Gross, WeChat Pay's fees, refunds and net per session, with the totals the reconciliation checks. */
export function SettlementTab({ report }: { report: SettlementReport }) {
  const t = report.totals;
  const rate = (report.feeRateBp / 100).toFixed(2);
  return (
    <>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        title={`按微信支付账单口径：每笔支付按费率 ${rate}% 收取手续费，退款按同一费率退回手续费，逐笔四舍五入到分；日期为北京时间。`}
      />
      <Table<SettlementRow>
        rowKey="sessionId"
        size="small"
        pagination={false}
        dataSource={report.rows}
        columns={[
          { title: '演出', dataIndex: 'showTitle' },
          { title: '场次时间', dataIndex: 'startsAt', render: (v: string) => dateTime(v) },
          { title: '支付笔数', dataIndex: 'payments', align: 'right' },
          { title: '实收', dataIndex: 'grossFen', align: 'right', render: fenToYuan },
          { title: '手续费', dataIndex: 'feeFen', align: 'right', render: fenToYuan },
          { title: '退款', dataIndex: 'refundedFen', align: 'right', render: fenToYuan },
          { title: '净额', dataIndex: 'netFen', align: 'right', render: fenToYuan },
        ]}
        summary={() => (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0} colSpan={2}>
              <Typography.Text strong>合计</Typography.Text>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={2} align="right">
              {t.payments}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={3} align="right">
              {fenToYuan(t.grossFen)}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={4} align="right">
              {fenToYuan(t.feeFen)}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={5} align="right">
              {fenToYuan(t.refundedFen)}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={6} align="right">
              <span data-testid="settlement-net">{fenToYuan(t.netFen)}</span>
            </Table.Summary.Cell>
          </Table.Summary.Row>
        )}
      />
    </>
  );
}
