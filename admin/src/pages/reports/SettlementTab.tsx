import { Alert, Table, Typography } from 'antd';
import type { SettlementReport, SettlementRow } from '@showtix/shared-types';
import { fenToYuan } from '../../utils/money';
import { countColumn, moneyColumn, ReportTable, SESSION_COLUMNS } from './parts';

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
      <ReportTable<SettlementRow>
        rowKey="sessionId"
        dataSource={report.rows}
        columns={[
          ...SESSION_COLUMNS,
          countColumn('支付笔数', 'payments'),
          moneyColumn('实收', 'grossFen'),
          moneyColumn('手续费', 'feeFen'),
          moneyColumn('退款', 'refundedFen'),
          moneyColumn('净额', 'netFen'),
        ]}
        summary={() => (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0} colSpan={2}>
              <Typography.Text strong>合计</Typography.Text>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={2} align="right">
              {t.payments}
            </Table.Summary.Cell>
            {[t.grossFen, t.feeFen, t.refundedFen].map((fen, i) => (
              <Table.Summary.Cell key={i} index={3 + i} align="right">
                {fenToYuan(fen)}
              </Table.Summary.Cell>
            ))}
            <Table.Summary.Cell index={6} align="right">
              <span data-testid="settlement-net">{fenToYuan(t.netFen)}</span>
            </Table.Summary.Cell>
          </Table.Summary.Row>
        )}
      />
    </>
  );
}
