import type { ReactNode } from 'react';
import { Button, Card, Space, Table, type TableProps } from 'antd';
import { EditOutlined, PlusOutlined } from '@ant-design/icons';

/** A page's title row, its actions on the right. */
export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <div className="page-header">
      <h2>{title}</h2>
      {children}
    </div>
  );
}

/** A detail page's title row: its "编辑…" button first, then the page's other actions. */
export function DetailHeader(p: {
  title: ReactNode;
  edit: string;
  onEdit: () => void;
  children?: ReactNode;
}) {
  return (
    <PageHeader title={p.title}>
      <Space>
        <Button icon={<EditOutlined />} onClick={p.onEdit}>
          {p.edit}
        </Button>
        {p.children}
      </Space>
    </PageHeader>
  );
}

/** A list page's "新建…" action: the primary button with a plus. */
export function NewButton(p: { onClick: () => void; testId?: string; children: ReactNode }) {
  return (
    <Button type="primary" icon={<PlusOutlined />} onClick={p.onClick} data-testid={p.testId}>
      {p.children}
    </Button>
  );
}

/** A list page's table in its card: rows keyed by id, 20 a page, no pager for a single page. */
export function ListCard<T extends { id: string | number }>(props: TableProps<T>) {
  return (
    <Card>
      <Table<T> rowKey="id" pagination={{ pageSize: 20, hideOnSinglePage: true }} {...props} />
    </Card>
  );
}

interface ListPageProps<T> extends Omit<TableProps<T>, 'title'> {
  title: string;
  /** The "新建…" button's words, test id and action. */
  add: { label: string; testId?: string; onClick: () => void };
  /** The list as useApi loads it. */
  list: { loading: boolean; data?: { items: T[] } };
}

/** A list page: its title with the "新建…" button, then the loaded items in a ListCard. */
export function ListPage<T extends { id: string | number }>({
  title,
  add,
  list,
  ...table
}: ListPageProps<T>) {
  return (
    <>
      <PageHeader title={title}>
        <NewButton onClick={add.onClick} testId={add.testId}>
          {add.label}
        </NewButton>
      </PageHeader>
      <ListCard<T> loading={list.loading} dataSource={list.data?.items} {...table} />
    </>
  );
}
