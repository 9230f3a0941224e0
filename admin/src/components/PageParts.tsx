import type { ReactNode } from 'react';
import { Button, Card, Table, type TableProps } from 'antd';
import { PlusOutlined } from '@ant-design/icons';

/** A page's title row, its actions on the right. */
export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <div className="page-header">
      <h2>{title}</h2>
      {children}
    </div>
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
