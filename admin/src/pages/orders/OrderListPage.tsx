import { useState } from 'react';
import { Alert, App, Button, Card, Space, Table, Tag, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { AdminOrderRow } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { exportOrders, searchOrders } from '../../api/orders';
import { useApi } from '../../api/useApi';
import { dateTime, ORDER_STATUS } from '../../utils/format';
import { fenToYuan } from '../../utils/money';
import { OrderDrawer } from './OrderDrawer';
import { OrderFilters, params, type Filters } from './OrderFilters';

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
        <OrderFilters
          onSearch={(f) => (setFilters(f), setPage((p) => ({ ...p, page: 1 })))}
          onReset={() => setFilters({})}
        />
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
