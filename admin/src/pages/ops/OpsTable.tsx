import type { ReactNode } from 'react';
import { Card, Table, type TableColumnType, type TableProps } from 'antd';
import { ConfirmButton } from '../../components/ConfirmButton';
import { dateTime } from '../../utils/format';
import { fenToYuan } from '../../utils/money';

/** The ops API; every repair is a POST below it. */
export const OPS = '/api/v1/admin/ops';

/** Runs one repair (POST under the ops API), then says it is done and reloads the page. */
export type Act = (path: string, done: string) => Promise<void>;

interface OpsTableProps<T> extends Pick<TableProps<T>, 'rowKey' | 'loading' | 'dataSource' | 'columns'> {
  title: string;
  /** Shown above the table (counts, explanations). */
  children?: ReactNode;
}

/** One kind of work recovery could not settle: a titled card with its compact, paged table. */
export function OpsTable<T extends object>({ title, children, ...table }: OpsTableProps<T>) {
  return (
    <Card title={title} size="small">
      {children}
      <Table<T> size="small" pagination={{ pageSize: 10, hideOnSinglePage: true }} {...table} />
    </Card>
  );
}

/** The order-number and amount columns most ops tables start with. */
export function orderColumns<T extends { orderNo: string }>(amountWidth = 110): TableColumnType<T>[] {
  return [
    { title: '订单号', dataIndex: 'orderNo' },
    { title: '金额', dataIndex: 'amountFen', width: amountWidth, render: fenToYuan },
  ];
}

/** A time column, to the minute. */
export function timeColumn<T>(title: string, dataIndex: string): TableColumnType<T> {
  return { title, dataIndex, width: 160, render: dateTime };
}

/** The row's repair: a button that asks `question`, then runs `act` on the row's path. */
export function repairColumn<T>(
  act: Act,
  r: { label: string; question: string; path: (row: T) => string; done: string },
): TableColumnType<T> {
  return {
    title: '',
    width: 100,
    render: (_, row) => (
      <ConfirmButton question={r.question} action={() => act(r.path(row), r.done)}>
        {r.label}
      </ConfirmButton>
    ),
  };
}
