import type { ReactNode } from 'react';
import { Space, Table, Tag, type TableColumnType, type TableProps } from 'antd';
import { ConfirmButton } from './ConfirmButton';
import { NewButton } from './PageParts';

interface TabTableProps<T> extends Omit<TableProps<T>, 'dataSource' | 'loading'> {
  /** The tab's "add" button: its words, test id and action. */
  add: { label: string; testId?: string; onClick: () => void };
  /** Shown beside the add button. */
  note?: ReactNode;
  /** The list as useApi loads it. */
  list: { loading: boolean; data?: { items: T[] } };
}

/** A tab's list: the add button (and a note) above the loaded items' table. */
export function TabTable<T extends object>({ add, note, list, ...table }: TabTableProps<T>) {
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <NewButton onClick={add.onClick} testId={add.testId}>
          {add.label}
        </NewButton>
        {note}
      </Space>
      <Table<T> loading={list.loading} dataSource={list.data?.items} {...table} />
    </>
  );
}

/** The shows a row is for, one tag each. */
export function showsColumn<T extends { shows: { id: string; title: string }[] }>(
  title: string,
): TableColumnType<T> {
  return {
    title,
    dataIndex: 'shows',
    render: (s: T['shows']) => s.map((x) => <Tag key={x.id}>{x.title}</Tag>),
  };
}

/** The row's removal: a danger button that asks `question` first (hidden where `can` says no). */
export function removeColumn<T>(
  label: string,
  question: string,
  remove: (row: T) => Promise<unknown>,
  can: (row: T) => boolean = () => true,
): TableColumnType<T> {
  return {
    title: '',
    width: 80,
    render: (_, row) =>
      can(row) && (
        <ConfirmButton question={question} danger action={() => remove(row)}>
          {label}
        </ConfirmButton>
      ),
  };
}
