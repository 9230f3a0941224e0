import { Card, Col, Row, Table, type TableProps } from 'antd';
import type { ComponentProps, ReactNode } from 'react';
import { EChart } from '../../components/EChart';
import { dateTime } from '../../utils/format';
import { fenToYuan } from '../../utils/money';

/** One chart of a report in a small titled card. */
export function ChartCard({ title, ...chart }: { title: string } & ComponentProps<typeof EChart>) {
  return (
    <Card size="small" title={title}>
      <EChart {...chart} />
    </Card>
  );
}

/** The columns a per-session report row starts with: the show and when the session starts. */
export const SESSION_COLUMNS = [
  { title: '演出', dataIndex: 'showTitle' },
  { title: '场次时间', dataIndex: 'startsAt', render: (v: string) => dateTime(v) },
];

/** A right-aligned column of counts. */
export const countColumn = (title: string, dataIndex: string) => ({
  title,
  dataIndex,
  align: 'right' as const,
});

/** A right-aligned column of amounts, shown in yuan. */
export const moneyColumn = (title: string, dataIndex: string) => ({
  ...countColumn(title, dataIndex),
  render: (fen: number) => fenToYuan(fen),
});

/** Two report cards side by side (stacked on a narrow screen); the first takes `first` of 24 columns. */
export function CardPair({ first, children }: { first: number; children: [ReactNode, ReactNode] }) {
  return (
    <Row gutter={16} style={{ marginTop: 16 }}>
      <Col xs={24} lg={first}>
        {children[0]}
      </Col>
      <Col xs={24} lg={24 - first}>
        {children[1]}
      </Col>
    </Row>
  );
}

/** A report's table: compact, every row on one page. */
export function ReportTable<T extends object>(props: TableProps<T>) {
  return <Table<T> size="small" pagination={false} {...props} />;
}
