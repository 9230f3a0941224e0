import { Button, Card, Col, Descriptions, Drawer, Form, Image, Row, Space, Table, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { SHOW_CATEGORY_LABEL, type AdminSessionSummary } from '@showtix/shared-types';
import { getShow, updateShow } from '../../api/shows';
import { useEditable } from '../../api/useEditable';
import { LoadState } from '../../components/LoadState';
import { DetailHeader } from '../../components/PageParts';
import { dateTime, SESSION_STATUS } from '../../utils/format';
import { fenToYuan } from '../../utils/money';
import { SessionActions } from './sessionActions';
import { ShowForm, type ShowFormValues } from './ShowForm';
import { TransferSettingsCard } from './TransferSettingsCard';

export function ShowDetailPage() {
  const { showId } = useParams();
  const navigate = useNavigate();
  const page = useEditable(
    () => getShow(showId!),
    [showId],
    (v: ShowFormValues) => updateShow(showId!, v),
  );
  const show = page.data;
  if (page.error || !show) return <LoadState error={page.error} />;
  return (
    <>
      <DetailHeader title={show.title} edit="编辑演出" onEdit={page.edit}>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => navigate(`/shows/${show.id}/sessions/new`)}
          data-testid="new-session"
        >
          新建场次
        </Button>
      </DetailHeader>
      <Row gutter={16}>
        <Col xs={24} xl={7}>
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
                {
                  label: '全演出限购',
                  children: show.showPurchaseLimit
                    ? `每人 ${show.showPurchaseLimit} 张`
                    : '不限（按场次限购）',
                },
                {
                  label: '改签',
                  children: show.exchangeRules?.allowed
                    ? `允许，开演前 ${show.exchangeRules.cutoffMinutes} 分钟截止`
                    : '不支持',
                },
                {
                  label: '退票规则',
                  children: show.refundRules.length
                    ? show.refundRules.map((r) => (
                        <div key={r.hoursBeforeStart}>
                          开演前 ≥{r.hoursBeforeStart} 小时：
                          {r.feePercent === 0
                            ? '免费退'
                            : r.feePercent === 100
                              ? '不可退'
                              : `收 ${r.feePercent}% 手续费`}
                        </div>
                      ))
                    : '不支持退票',
                },
                {
                  label: '介绍',
                  children: <div style={{ whiteSpace: 'pre-wrap' }}>{show.description || '—'}</div>,
                },
              ]}
            />
          </Card>
          <TransferSettingsCard showId={show.id} />
        </Col>
        <Col xs={24} xl={17}>
          <Card size="small" title="场次">
            <Table<AdminSessionSummary>
              rowKey="id"
              dataSource={show.sessions}
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
                      <SessionActions s={s} done={page.reload} compact />
                    </Space>
                  ),
                },
              ]}
            />
          </Card>
        </Col>
      </Row>
      <Drawer
        title="编辑演出"
        size={560}
        open={page.editing}
        onClose={page.close}
        destroyOnHidden
        extra={
          <Space>
            <Button onClick={page.close}>取消</Button>
            <Button type="primary" onClick={() => page.form.submit()}>
              保存
            </Button>
          </Space>
        }
      >
        <Form form={page.form} layout="vertical" onFinish={page.save}>
          <ShowForm venueLocked={show.sessionCount > 0} />
        </Form>
      </Drawer>
    </>
  );
}
