import type { ReactNode } from 'react';
import { Form } from 'antd';
import { getShow, listShows } from '../api/shows';
import { useApi } from '../api/useApi';
import { dateTime } from '../utils/format';
import { SearchSelect } from './SearchSelect';

interface Pair {
  show: string;
  session: string;
}

interface Props {
  /** The show picker's placeholder, and the session picker's once a show is chosen. */
  placeholder: Pair;
  testId: Pair;
  /** The pickers' widths in an inline form (in a grid, the column sizes them). */
  width?: { show: number; session: number };
  /** Wraps each form item (a grid column in the order search). */
  wrap?: (item: ReactNode) => ReactNode;
}

/**
 * A filter form's 演出 and 场次 pickers (fields showId and sessionId), both searchable by typing:
 * the sessions are those of the chosen show, ended ones included, so past sales can be found too;
 * choosing another show clears the session.
 */
export function ShowSessionPickers({ placeholder, testId, width, wrap = (item) => item }: Props) {
  const form = Form.useFormInstance();
  const showId = Form.useWatch<string | undefined>('showId', form);
  const shows = useApi(() => listShows(), []);
  const show = useApi(() => (showId ? getShow(showId) : Promise.resolve(undefined)), [showId]);
  return (
    <>
      {wrap(
        <Form.Item name="showId" label="演出">
          <SearchSelect
            allowClear
            style={width && { width: width.show }}
            placeholder={placeholder.show}
            loading={shows.loading}
            options={(shows.data?.items ?? []).map((s) => ({ value: s.id, label: s.title }))}
            onChange={() => form.setFieldValue('sessionId', undefined)}
            data-testid={testId.show}
          />
        </Form.Item>,
      )}
      {wrap(
        <Form.Item name="sessionId" label="场次">
          <SearchSelect
            allowClear
            style={width && { width: width.session }}
            disabled={!showId}
            placeholder={showId ? placeholder.session : '先选择演出'}
            loading={show.loading && !!showId}
            options={(show.data?.sessions ?? []).map((s) => ({ value: s.id, label: dateTime(s.startsAt) }))}
            data-testid={testId.session}
          />
        </Form.Item>,
      )}
    </>
  );
}
