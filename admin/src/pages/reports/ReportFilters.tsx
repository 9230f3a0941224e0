import { Button, DatePicker, Form, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { getShow, listShows } from '../../api/shows';
import { useApi } from '../../api/useApi';
import type { ReportFilter } from '../../api/reports';
import { dateTime } from '../../utils/format';

interface Values {
  showId?: string;
  sessionId?: string;
  days?: [Dayjs, Dayjs] | null;
}

const search = { optionFilterProp: 'label' } as const;

/** 演出, 场次 and a range of Beijing calendar days; the report reloads on 查询. */
export function ReportFilters({ onApply }: { onApply: (f: ReportFilter) => void }) {
  const [form] = Form.useForm<Values>();
  const showId = Form.useWatch('showId', form);
  const shows = useApi(() => listShows(), []);
  const show = useApi(() => (showId ? getShow(showId) : Promise.resolve(undefined)), [showId]);
  const apply = (v: Values) =>
    onApply({
      showId: v.showId || undefined,
      sessionId: v.sessionId || undefined,
      from: v.days?.[0]?.format('YYYY-MM-DD'),
      to: v.days?.[1]?.format('YYYY-MM-DD'),
    });
  return (
    <Form form={form} layout="inline" onFinish={apply} style={{ rowGap: 8 }}>
      <Form.Item name="showId" label="演出">
        <Select
          allowClear
          showSearch={search}
          style={{ width: 220 }}
          placeholder="全部演出"
          loading={shows.loading}
          options={(shows.data?.items ?? []).map((s) => ({ value: s.id, label: s.title }))}
          onChange={() => form.setFieldValue('sessionId', undefined)}
          data-testid="report-show"
        />
      </Form.Item>
      <Form.Item name="sessionId" label="场次">
        <Select
          allowClear
          style={{ width: 180 }}
          disabled={!showId}
          placeholder={showId ? '全部场次' : '先选择演出'}
          options={(show.data?.sessions ?? []).map((s) => ({ value: s.id, label: dateTime(s.startsAt) }))}
          data-testid="report-session"
        />
      </Form.Item>
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
