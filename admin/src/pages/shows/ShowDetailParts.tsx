import { Button, Card, Descriptions, Image, Space, Table, Tag } from 'antd';
import { Link, useNavigate } from 'react-router-dom';
import { SHOW_CATEGORY_LABEL, type AdminSessionSummary, type AdminShowDetail } from '@showtix/shared-types';
import { dateTime, SESSION_STATUS } from '../../utils/format';
import { fenToYuan } from '../../utils/money';
import { SessionActions } from './sessionActions';
import { exchangeText, purchaseLimitText, refundFeeText } from './showDetailText';

function RefundRules({ show }: { show: AdminShowDetail }) {
  if (!show.refundRules.length) return '不支持退票';
  return show.refundRules.map((r) => (
    <div key={r.hoursBeforeStart}>
      开演前 ≥{r.hoursBeforeStart} 小时：
      {refundFeeText(r)}
    </div>
  ));
}

/** The poster and the show's facts (category, venue, limits, exchange and refund rules). */
export function ShowInfoCard({ show }: { show: AdminShowDetail }) {
  return (
    <Card size="small" style={{ marginBottom: 16 }}>
      {show.posterUrl && (
        <Image
          src={show.posterUrl}
          width="100%"
          style={{ borderRadius: 6, marginBottom: 12, maxHeight: 360, objectFit: 'cover' }}
        />
      )}
      <Descriptions
        column={1}
        size="small"
        items={[
          { label: '分类', children: SHOW_CATEGORY_LABEL[show.category] },
          { label: '场馆', children: <Link to={`/venues/${show.venueId}`}>{show.venueName}</Link> },
          { label: '全演出限购', children: purchaseLimitText(show) },
          { label: '改签', children: exchangeText(show) },
          { label: '退票规则', children: <RefundRules show={show} /> },
          {
            label: '介绍',
            children: <div style={{ whiteSpace: 'pre-wrap' }}>{show.description || '—'}</div>,
          },
        ]}
      />
    </Card>
  );
}

/** The show's sessions with a link to each one's settings and its sale actions. */
export function SessionTable({ sessions, reload }: { sessions: AdminSessionSummary[]; reload: () => void }) {
  const navigate = useNavigate();
  return (
    <Card size="small" title="场次">
      <Table<AdminSessionSummary>
        rowKey="id"
        dataSource={sessions}
        pagination={false}
        columns={[
          {
            title: '演出时间',
            dataIndex: 'startsAt',
            render: (v, r) => <Link to={`/sessions/${r.id}`}>{dateTime(v)}</Link>,
          },
          { title: '开售时间', dataIndex: 'saleStartsAt', render: dateTime },
          {
            title: '状态',
            dataIndex: 'status',
            render: (s: AdminSessionSummary['status']) => (
              <Tag color={SESSION_STATUS[s].color}>{SESSION_STATUS[s].label}</Tag>
            ),
          },
          {
            title: '票档',
            dataIndex: 'tiers',
            render: (t: AdminSessionSummary['tiers']) =>
              t.map((x) => (
                <Tag key={x.id}>
                  {x.name} {fenToYuan(x.priceFen)}
                </Tag>
              )),
          },
          { title: '容量', dataIndex: 'capacity', align: 'right' },
          {
            title: '操作',
            render: (_, s) => (
              <Space>
                <Button size="small" onClick={() => navigate(`/sessions/${s.id}`)}>
                  设置
                </Button>
                <SessionActions s={s} done={reload} compact />
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
