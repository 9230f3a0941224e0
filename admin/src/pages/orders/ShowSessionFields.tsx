import { Col, Form, Select } from 'antd';
import { listShows, getShow } from '../../api/shows';
import { useApi } from '../../api/useApi';
import { dateTime } from '../../utils/format';

const search = { optionFilterProp: 'label' } as const;

/**
 * The order search's 演出 and 场次 pickers, both searchable by typing (walk-through #11): the
 * sessions are those of the chosen show, ended ones included, so past sales can be found too.
 */
export function ShowSessionFields() {
  const form = Form.useFormInstance();
  const showId = Form.useWatch<string | undefined>('showId', form);
  const shows = useApi(() => listShows(), []);
  const show = useApi(() => (showId ? getShow(showId) : Promise.resolve(undefined)), [showId]);
  return (
    <>
      <Col xs={24} md={6}>
        <Form.Item name="showId" label="演出">
          <Select
            allowClear
            showSearch={search}
            placeholder="输入演出名搜索"
            loading={shows.loading}
            options={(shows.data?.items ?? []).map((s) => ({ value: s.id, label: s.title }))}
            onChange={() => form.setFieldValue('sessionId', undefined)}
            data-testid="filter-show"
          />
        </Form.Item>
      </Col>
      <Col xs={24} md={6}>
        <Form.Item name="sessionId" label="场次">
          <Select
            allowClear
            showSearch={search}
            disabled={!showId}
            placeholder={showId ? '选择场次' : '先选择演出'}
            loading={show.loading && !!showId}
            options={(show.data?.sessions ?? []).map((s) => ({ value: s.id, label: dateTime(s.startsAt) }))}
            data-testid="filter-session"
          />
        </Form.Item>
      </Col>
    </>
  );
}
