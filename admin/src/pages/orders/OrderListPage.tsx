import { useState } from 'react';
import { Alert, App, Button, Card, Space, Table } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { AdminOrderRow } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { exportOrders, searchOrders } from '../../api/orders';
import { usePagedSearch } from '../../api/usePagedSearch';
import { OrderDrawer } from './OrderDrawer';
import { OrderFilters, params, type Filters } from './OrderFilters';
import { ORDER_COLUMNS } from './orderColumns';

export function OrderListPage() {
  const { message } = App.useApp();
  const [open, setOpen] = useState<string>();
  const { data, loading, error, reload, filters, onSearch, onReset, pagination } = usePagedSearch(
    (f: Filters, page) => searchOrders(params(f), page),
  );
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
        <OrderFilters onSearch={onSearch} onReset={onReset} />
      </Card>
      {error && <Alert type="error" showIcon title={error.message} style={{ marginBottom: 16 }} />}
      <Card>
        <Table<AdminOrderRow>
          rowKey="orderNo"
          loading={loading}
          dataSource={data?.items}
          onRow={(r) => ({ onClick: () => setOpen(r.orderNo), style: { cursor: 'pointer' } })}
          pagination={{ ...pagination, showSizeChanger: true, showTotal: (t) => `共 ${t} 笔` }}
          columns={ORDER_COLUMNS}
        />
      </Card>
      <OrderDrawer orderNo={open} onClose={() => setOpen(undefined)} onChanged={reload} />
    </>
  );
}
