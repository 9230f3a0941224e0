import { Image, Tag, type TableColumnsType } from 'antd';
import { Link } from 'react-router-dom';
import { SHOW_CATEGORY_LABEL, type AdminShowSummary } from '@showtix/shared-types';
import { dateTime, SESSION_STATUS } from '../../utils/format';

function Statuses({ s }: { s: AdminShowSummary['statuses'] }) {
  if (!s.length) return <Tag>未排场</Tag>;
  return [...new Set(s)].map((x) => (
    <Tag key={x} color={SESSION_STATUS[x].color}>
      {SESSION_STATUS[x].label}
    </Tag>
  ));
}

/** The show list's columns: poster, title (a link), category, venue, sessions and their states. */
export const SHOW_COLUMNS: TableColumnsType<AdminShowSummary> = [
  {
    title: '海报',
    dataIndex: 'posterUrl',
    width: 72,
    render: (u: string | null) =>
      u ? (
        <Image src={u} width={40} height={54} style={{ objectFit: 'cover', borderRadius: 4 }} />
      ) : (
        <div style={{ width: 40, height: 54, background: '#f0f0f0', borderRadius: 4 }} />
      ),
  },
  { title: '演出', dataIndex: 'title', render: (v, r) => <Link to={`/shows/${r.id}`}>{v}</Link> },
  {
    title: '分类',
    dataIndex: 'category',
    width: 110,
    render: (c: AdminShowSummary['category']) => SHOW_CATEGORY_LABEL[c],
  },
  { title: '场馆', dataIndex: 'venueName' },
  { title: '场次', dataIndex: 'sessionCount', width: 70, align: 'right' },
  { title: '首场时间', dataIndex: 'firstStartsAt', width: 160, render: dateTime },
  { title: '状态', dataIndex: 'statuses', render: (s: AdminShowSummary['statuses']) => <Statuses s={s} /> },
];
