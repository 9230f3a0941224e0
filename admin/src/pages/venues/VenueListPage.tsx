import { Button, Space, Tag } from 'antd';
import { Link, useNavigate } from 'react-router-dom';
import { sectionLabel, type VenueSummary } from '@showtix/shared-types';
import { listVenues } from '../../api/venues';
import { useApi } from '../../api/useApi';
import { dateTime } from '../../utils/format';
import { exportLayout } from '../../api/venues';
import { ListPage } from '../../components/PageParts';

export function VenueListPage() {
  const navigate = useNavigate();
  const list = useApi(() => listVenues(), []);
  return (
    <ListPage<VenueSummary>
      title="场馆与座位图"
      add={{ label: '新建场馆', testId: 'new-venue', onClick: () => navigate('/venues/new') }}
      list={list}
      columns={[
        { title: '场馆', dataIndex: 'name', render: (v, r) => <Link to={`/venues/${r.id}`}>{v}</Link> },
        { title: '城市', dataIndex: 'city', width: 100 },
        {
          title: '座位',
          dataIndex: 'seatCount',
          width: 100,
          align: 'right',
          render: (v: number) => v.toLocaleString('zh-CN'),
        },
        {
          title: '分区',
          dataIndex: 'sections',
          render: (s: string[]) => s.slice(0, 8).map((x) => <Tag key={x}>{sectionLabel(x)}</Tag>),
        },
        { title: '站席区', dataIndex: 'zoneCount', width: 90, align: 'right' },
        { title: '场次', dataIndex: 'sessionCount', width: 80, align: 'right' },
        { title: '创建时间', dataIndex: 'createdAt', width: 160, render: dateTime },
        {
          title: '导出',
          width: 150,
          render: (_, r) => (
            <Space>
              <Button size="small" onClick={() => exportLayout(r, 'csv')}>
                CSV
              </Button>
              <Button size="small" onClick={() => exportLayout(r, 'json')}>
                JSON
              </Button>
            </Space>
          ),
        },
      ]}
    />
  );
}
