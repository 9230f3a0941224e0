import { Button, Col, Form, Input, Row, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import type { AuditEntry } from '@showtix/shared-types';
import { dateTimeSec } from '../../utils/format';
import { ACTION, ENTITY } from './auditLabels';

export type AuditFilter = Record<string, string | undefined>;

const options = (m: Record<string, string>) => Object.entries(m).map(([value, label]) => ({ value, label }));

/** Inline search form: object type, action, object id, actor. */
export function AuditFilters({
  onSearch,
  onReset,
}: {
  onSearch: (f: AuditFilter) => void;
  onReset: () => void;
}) {
  return (
    <Form layout="inline" onFinish={onSearch}>
      <Form.Item name="entityType" label="对象">
        <Select allowClear style={{ width: 140 }} options={options(ENTITY)} />
      </Form.Item>
      <Form.Item name="action" label="操作">
        <Select allowClear showSearch style={{ width: 180 }} options={options(ACTION)} />
      </Form.Item>
      <Form.Item name="entityId" label="对象编号">
        <Input allowClear style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="actor" label="操作人">
        <Input allowClear style={{ width: 140 }} />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit">
          查询
        </Button>
        <Button htmlType="reset" onClick={onReset}>
          重置
        </Button>
      </Space>
    </Form>
  );
}

function Json({ value }: { value: unknown }) {
  return <pre>{value === null || value === undefined ? '—' : JSON.stringify(value, null, 2)}</pre>;
}

/** An entry's before and after, side by side (the expanded row). */
export function AuditDiff({ r }: { r: AuditEntry }) {
  return (
    <Row gutter={16} className="json-diff">
      <Col span={12}>
        <Typography.Text type="secondary">修改前</Typography.Text>
        <Json value={r.before} />
      </Col>
      <Col span={12}>
        <Typography.Text type="secondary">修改后</Typography.Text>
        <Json value={r.after} />
      </Col>
    </Row>
  );
}

export const AUDIT_COLUMNS: TableColumnsType<AuditEntry> = [
  { title: '时间', dataIndex: 'createdAt', width: 180, render: dateTimeSec },
  { title: '操作人', dataIndex: 'actor', width: 140 },
  { title: '操作', dataIndex: 'action', render: (a: string) => ACTION[a] ?? a },
  {
    title: '对象',
    render: (_, r) => (
      <>
        <Tag>{ENTITY[r.entityType] ?? r.entityType}</Tag>
        {r.entityId}
      </>
    ),
  },
  { title: 'IP', dataIndex: 'ip', width: 140 },
];
