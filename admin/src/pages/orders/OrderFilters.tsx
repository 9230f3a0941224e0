import { Button, Col, DatePicker, Form, Input, Row, Select, Space, type FormRule } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { ORDER_STATUSES, PhoneSchema } from '@showtix/shared-types';
import type { OrderFilter } from '../../api/orders';
import { ShowSessionPickers } from '../../components/ShowSessionPickers';
import { ORDER_STATUS } from '../../utils/format';

/** The search form's values: the query's fields, with a range of days for from and to. */
export type Filters = Omit<OrderFilter, 'from' | 'to'> & { range?: [Dayjs, Dayjs] };

/** The server finds a phone by its keyed hash, so only a complete number can match. */
const phoneRule: FormRule = {
  validator: async (_, v?: string) => {
    const r = v?.trim() ? PhoneSchema.safeParse(v) : undefined;
    if (r && !r.success) throw new Error(r.error.issues[0]!.message);
  },
};

/** The typed-in search fields, matched as the hints say. */
const TEXT_FIELDS: {
  name: string;
  label: string;
  placeholder?: string;
  testId?: string;
  rules?: FormRule[];
}[] = [
  { name: 'orderNo', label: '订单号', placeholder: '完整或前几位', testId: 'search-orderNo' },
  { name: 'buyer', label: '买家', placeholder: '用户ID / OpenID / 昵称' },
  {
    name: 'phone',
    label: '联系手机',
    placeholder: '完整 11 位手机号',
    testId: 'search-phone',
    rules: [phoneRule],
  },
  { name: 'idNumber', label: '证件号' },
];

const col = (item: React.ReactNode) => (
  <Col xs={24} md={6}>
    {item}
  </Col>
);

/** The query string's fields: typed text trimmed, empty ones left out, the days as whole local days. */
export function params(f: Filters): OrderFilter {
  const text = (v?: string) => v?.trim() || undefined;
  return {
    orderNo: text(f.orderNo),
    buyer: text(f.buyer),
    phone: text(f.phone),
    idNumber: text(f.idNumber),
    status: f.status,
    showId: f.showId,
    sessionId: f.sessionId,
    from: f.range?.[0]?.startOf('day').toISOString(),
    to: f.range?.[1]?.endOf('day').toISOString(),
  };
}

/** 订单管理's search form: 查询 applies it, 重置 clears it. */
export function OrderFilters(p: { onSearch: (f: Filters) => void; onReset: () => void }) {
  return (
    <Form layout="vertical" onFinish={p.onSearch}>
      <Row gutter={12}>
        {TEXT_FIELDS.map((f) => (
          <Col key={f.name} xs={24} md={6}>
            <Form.Item name={f.name} label={f.label} rules={f.rules}>
              <Input allowClear placeholder={f.placeholder} data-testid={f.testId} />
            </Form.Item>
          </Col>
        ))}
        {col(
          <Form.Item name="status" label="状态">
            <Select
              allowClear
              options={ORDER_STATUSES.map((s) => ({ value: s, label: ORDER_STATUS[s].label }))}
            />
          </Form.Item>,
        )}
        <ShowSessionPickers
          placeholder={{ show: '输入演出名搜索', session: '选择场次' }}
          testId={{ show: 'filter-show', session: 'filter-session' }}
          wrap={col}
        />
        <Col xs={24} md={8}>
          <Form.Item name="range" label="下单日期">
            <DatePicker.RangePicker style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} md={10} style={{ display: 'flex', alignItems: 'flex-end', paddingBottom: 24 }}>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="search-orders">
              查询
            </Button>
            <Button htmlType="reset" onClick={p.onReset}>
              重置
            </Button>
          </Space>
        </Col>
      </Row>
    </Form>
  );
}
