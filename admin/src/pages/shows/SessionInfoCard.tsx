import { Card, Col, DatePicker, Form, InputNumber, Row, Switch } from 'antd';
import type { FormInstance } from 'antd';
import type { Dayjs } from 'dayjs';
import type { AdminSessionDetail } from '@showtix/shared-types';
import type { SessionFields } from './sessionModel';

const FULL = { width: '100%' } as const;
const TIME = { showTime: { format: 'HH:mm' }, format: 'YYYY-MM-DD HH:mm', style: FULL } as const;

/** Sale must open before the show starts. */
const saleBeforeStart = ({ getFieldValue }: { getFieldValue: (n: string) => Dayjs | undefined }) => ({
  validator: (_: unknown, v: Dayjs) =>
    v && getFieldValue('startsAt') && !v.isBefore(getFieldValue('startsAt'))
      ? Promise.reject(new Error('开售时间必须早于演出开始时间'))
      : Promise.resolve(),
});

/** "场次信息": times, hold, purchase limit, real name and queue switches. */
export function SessionInfoCard({ form, s }: { form: FormInstance<SessionFields>; s?: AdminSessionDetail }) {
  const queueOn = Form.useWatch('queueEnabled', form);
  return (
    <Card size="small" title="场次信息" style={{ marginBottom: 16 }}>
      <Row gutter={16}>
        <Col xs={24} md={5}>
          <Form.Item name="startsAt" label="演出开始时间" rules={[{ required: true, message: '请选择时间' }]}>
            <DatePicker {...TIME} />
          </Form.Item>
        </Col>
        <Col xs={24} md={5}>
          <Form.Item
            name="saleStartsAt"
            label="开售时间"
            dependencies={['startsAt']}
            rules={[{ required: true, message: '请选择时间' }, saleBeforeStart]}
          >
            <DatePicker {...TIME} disabled={!!s && s.status !== 'presale'} />
          </Form.Item>
        </Col>
        <Col xs={12} md={3}>
          <Form.Item name="holdMinutes" label="锁座时长" tooltip="下单后未支付，座位保留多久">
            <InputNumber min={1} max={120} suffix="分钟" style={FULL} />
          </Form.Item>
        </Col>
        <Col xs={12} md={3}>
          <Form.Item name="purchaseLimit" label="每人限购">
            <InputNumber min={1} max={10} suffix="张" style={FULL} />
          </Form.Item>
        </Col>
        <Col xs={8} md={2}>
          <Form.Item name="realName" label="实名制" valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
        <Col xs={8} md={2}>
          <Form.Item name="queueEnabled" label="排队购票" valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
        <Col xs={8} md={4}>
          <Form.Item name="queueRatePerMin" label="放行速度" tooltip="排队开启时，每分钟从队列放行的人数">
            <InputNumber min={1} disabled={!queueOn} suffix="人/分" style={FULL} />
          </Form.Item>
        </Col>
      </Row>
    </Card>
  );
}
