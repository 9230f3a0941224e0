import { useState } from 'react';
import { Card, Col, Form, Input, Row, Select, Space, Button, Table, Tag, Typography } from 'antd';
import type { AuditEntry } from '@showtix/shared-types';
import { searchAudit } from '../../api/audit';
import { useApi } from '../../api/useApi';
import { dateTimeSec } from '../../utils/format';

const ENTITY: Record<string, string> = {
  venue: '场馆',
  show: '演出',
  session: '场次',
  order: '订单',
  staff: '检票人员',
  invite: '邀请码',
  admin: '账号',
  blocklist: '黑名单',
};

const ACTION: Record<string, string> = {
  'venue.create': '新建场馆',
  'venue.update': '修改场馆',
  'venue.layout': '替换座位图',
  'show.create': '新建演出',
  'show.update': '修改演出',
  'session.create': '新建场次',
  'session.update': '修改场次',
  'session.tiers': '修改票档',
  'session.open': '开售',
  'session.end': '结束场次',
  'order.refund': '退款',
  'order.export': '导出订单',
  'staff.assign': '设置检票人员',
  'staff.remove': '移除检票人员',
  'staff.invite': '生成邀请码',
  'staff.invite_revoke': '作废邀请码',
  'staff.redeem': '使用邀请码',
  'admin.bootstrap': '创建首个管理员',
  'admin.create': '新建账号',
  'admin.update': '修改账号',
  'auth.login': '登录',
  'auth.logout': '退出',
  'risk.block': '加入黑名单',
  'risk.unblock': '移出黑名单',
};

function Json({ value }: { value: unknown }) {
  return <pre>{value === null || value === undefined ? '—' : JSON.stringify(value, null, 2)}</pre>;
}

export function AuditPage() {
  const [filters, setFilters] = useState<Record<string, string | undefined>>({});
  const [page, setPage] = useState({ page: 1, pageSize: 20 });
  const { data, loading } = useApi(() => searchAudit({ ...filters, ...page }), [filters, page]);
  return (
    <>
      <div className="page-header">
        <h2>操作日志</h2>
      </div>
      <Card style={{ marginBottom: 16 }}>
        <Form layout="inline" onFinish={(f) => (setFilters(f), setPage((p) => ({ ...p, page: 1 })))}>
          <Form.Item name="entityType" label="对象">
            <Select
              allowClear
              style={{ width: 140 }}
              options={Object.entries(ENTITY).map(([value, label]) => ({ value, label }))}
            />
          </Form.Item>
          <Form.Item name="action" label="操作">
            <Select
              allowClear
              showSearch
              style={{ width: 180 }}
              options={Object.entries(ACTION).map(([value, label]) => ({ value, label }))}
            />
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
            <Button htmlType="reset" onClick={() => setFilters({})}>
              重置
            </Button>
          </Space>
        </Form>
      </Card>
      <Card>
        <Table<AuditEntry>
          rowKey="id"
          loading={loading}
          dataSource={data?.items}
          pagination={{
            current: page.page,
            pageSize: page.pageSize,
            total: data?.total,
            showTotal: (t) => `共 ${t} 条`,
            onChange: (p, s) => setPage({ page: p, pageSize: s }),
          }}
          expandable={{
            rowExpandable: (r) => r.before !== null || r.after !== null,
            expandedRowRender: (r) => (
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
            ),
          }}
          columns={[
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
          ]}
        />
      </Card>
    </>
  );
}
