import { useState } from 'react';
import {
  App,
  Button,
  Card,
  Col,
  DatePicker,
  Form,
  Input,
  Row,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  Alert,
  type FormRule,
} from 'antd';
import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { ORDER_STATUSES, PhoneSchema, type AdminOrderRow } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { exportOrders, searchOrders } from '../../api/orders';
import { useApi } from '../../api/useApi';
import { dateTime, ORDER_STATUS } from '../../utils/format';
import { fenToYuan } from '../../utils/money';
import { OrderDrawer } from './OrderDrawer';
import { ShowSessionFields } from './ShowSessionFields';

interface Filters {
  orderNo?: string;
  buyer?: string;
  phone?: string;
  idNumber?: string;
  status?: string;
  showId?: string;
  sessionId?: string;
  range?: [Dayjs, Dayjs];
}

/** The server finds a phone by its keyed hash, so only a complete number can match. */
const phoneRule: FormRule = {
  validator: async (_, v?: string) => {
    const r = v?.trim() ? PhoneSchema.safeParse(v) : undefined;
    if (r && !r.success) throw new Error(r.error.issues[0]!.message);
  },
};

function params(f: Filters): Record<string, string | undefined> {
  return {
    orderNo: f.orderNo?.trim() || undefined,
    buyer: f.buyer?.trim() || undefined,
    phone: f.phone?.trim() || undefined,
    idNumber: f.idNumber?.trim() || undefined,
    status: f.status,
    showId: f.showId,
    sessionId: f.sessionId,
    from: f.range?.[0]?.startOf('day').toISOString(),
    to: f.range?.[1]?.endOf('day').toISOString(),
  };
}

export function OrderListPage() {
  const { message } = App.useApp();
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState({ page: 1, pageSize: 20 });
  const [open, setOpen] = useState<string>();
  const { data, loading, error, reload } = useApi(() => searchOrders(params(filters), page), [filters, page]);
  const exportAs = async (format: 'csv' | 'xlsx') => {
    try {
      await exportOrders(params(filters), format);
    } catch (e) {
      message.error(errorText(e, '导出失败'));
    }
  };
  return (
    <>
      <div className="page-header">
        <h2>订单管理</h2>
        <Space>
          <Button icon={<DownloadOutlined />} onClick={() => exportAs('csv')}>
            导出 CSV
          </Button>
          <Button icon={<DownloadOutlined />} onClick={() => exportAs('xlsx')}>
            导出 Excel
          </Button>
        </Space>
      </div>
      <Card style={{ marginBottom: 16 }}>
        <Form
          layout="vertical"
          onFinish={(f: Filters) => (setFilters(f), setPage((p) => ({ ...p, page: 1 })))}
        >
          <Row gutter={12}>
            <Col xs={24} md={6}>
              <Form.Item name="orderNo" label="订单号">
                <Input allowClear placeholder="完整或前几位" data-testid="search-orderNo" />
              </Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <Form.Item name="buyer" label="买家">
                <Input allowClear placeholder="用户ID / OpenID / 昵称" />
              </Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <Form.Item name="phone" label="联系手机" rules={[phoneRule]}>
                <Input allowClear placeholder="完整 11 位手机号" data-testid="search-phone" />
              </Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <Form.Item name="idNumber" label="证件号">
                <Input allowClear />
              </Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <Form.Item name="status" label="状态">
                <Select
                  allowClear
                  options={ORDER_STATUSES.map((s) => ({ value: s, label: ORDER_STATUS[s].label }))}
                />
              </Form.Item>
            </Col>
            <ShowSessionFields />
            <Col xs={24} md={8}>
              <Form.Item name="range" label="下单日期">
                <DatePicker.RangePicker style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={10} style={{ display: 'flex', alignItems: 'flex-end', paddingBottom: 24 }}>
              <Space>
                <Button
                  type="primary"
                  htmlType="submit"
                  icon={<SearchOutlined />}
                  data-testid="search-orders"
                >
                  查询
                </Button>
                <Button htmlType="reset" onClick={() => setFilters({})}>
                  重置
                </Button>
              </Space>
            </Col>
          </Row>
        </Form>
      </Card>
      {error && <Alert type="error" showIcon title={error.message} style={{ marginBottom: 16 }} />}
      <Card>
        <Table<AdminOrderRow>
          rowKey="orderNo"
          loading={loading}
          dataSource={data?.items}
          onRow={(r) => ({ onClick: () => setOpen(r.orderNo), style: { cursor: 'pointer' } })}
          pagination={{
            current: page.page,
            pageSize: page.pageSize,
            total: data?.total,
            showSizeChanger: true,
            showTotal: (t) => `共 ${t} 笔`,
            onChange: (p, s) => setPage({ page: p, pageSize: s }),
          }}
          columns={[
            {
              title: '订单号',
              dataIndex: 'orderNo',
              width: 250,
              render: (v: string) => (
                <Typography.Text
                  copyable={{ text: v }}
                  style={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}
                >
                  {v}
                </Typography.Text>
              ),
            },
            { title: '演出', dataIndex: 'showTitle', ellipsis: true },
            { title: '场次', dataIndex: 'sessionStartsAt', width: 150, render: dateTime },
            {
              title: '买家',
              dataIndex: 'buyer',
              render: (b: AdminOrderRow['buyer'], r) => (
                <>
                  {b.nickname ?? '微信用户'}
                  <br />
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    ID {b.userId}
                    {r.contactPhone && ` · ${r.contactPhone}`}
                  </Typography.Text>
                </>
              ),
            },
            {
              title: '观演人',
              dataIndex: 'attendees',
              render: (a: AdminOrderRow['attendees']) =>
                a.map((x) => (
                  <div key={x.idNumber} style={{ fontSize: 12 }}>
                    {x.name} {x.idNumber}
                  </div>
                )),
            },
            { title: '张数', dataIndex: 'quantity', width: 60, align: 'right' },
            { title: '金额', dataIndex: 'amountFen', width: 110, align: 'right', render: fenToYuan },
            {
              title: '状态',
              dataIndex: 'status',
              width: 90,
              render: (s: AdminOrderRow['status']) => (
                <Tag color={ORDER_STATUS[s].color}>{ORDER_STATUS[s].label}</Tag>
              ),
            },
            { title: '下单时间', dataIndex: 'createdAt', width: 150, render: dateTime },
          ]}
        />
      </Card>
      <OrderDrawer orderNo={open} onClose={() => setOpen(undefined)} onChanged={reload} />
    </>
  );
}
