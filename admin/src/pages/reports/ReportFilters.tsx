import { Button, DatePicker, Form, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import type { ReportFilter } from '../../api/reports';
import { ShowSessionPickers } from '../../components/ShowSessionPickers';

interface Values {
  showId?: string;
  sessionId?: string;
  days?: [Dayjs, Dayjs] | null;
}

/** 演出, 场次 and a range of Beijing calendar days; the report reloads on 查询. */
export function ReportFilters({ onApply }: { onApply: (f: ReportFilter) => void }) {
  const [form] = Form.useForm<Values>();
  const apply = (v: Values) =>
    onApply({
      showId: v.showId || undefined,
      sessionId: v.sessionId || undefined,
      from: v.days?.[0]?.format('YYYY-MM-DD'),
      to: v.days?.[1]?.format('YYYY-MM-DD'),
    });
  return (
    <Form form={form} layout="inline" onFinish={apply} style={{ rowGap: 8 }}>
      <ShowSessionPickers
        placeholder={{ show: '全部演出', session: '全部场次' }}
        testId={{ show: 'report-show', session: 'report-session' }}
        width={{ show: 220, session: 180 }}
      />
      <Form.Item name="days" label="日期(北京时间)">
        <DatePicker.RangePicker />
      </Form.Item>
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            查询
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              apply({});
            }}
          >
            重置
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
