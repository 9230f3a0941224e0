import { useMemo } from 'react';
import { Button, Card, Col, Descriptions, Form, Input, Modal, Row, Tag } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useNavigate, useParams } from 'react-router-dom';
import { sectionLabel } from '@showtix/shared-types';
import { getVenue, updateVenue } from '../../api/venues';
import { useEditable } from '../../api/useEditable';
import { LoadState } from '../../components/LoadState';
import { DetailHeader } from '../../components/PageParts';
import { SeatMapCanvas } from '../../components/SeatMapCanvas';
import { colorBySection } from '../../seatmap/draw';
import { dateTime } from '../../utils/format';
import { exportLayout } from '../../api/venues';
import { CoordinateFields, coordinateText, coordinatesOf } from './CoordinateFields';

interface MetaForm {
  name: string;
  city: string;
  address: string;
  latitude?: number | null;
  longitude?: number | null;
}

export function VenueDetailPage() {
  const { venueId } = useParams();
  const navigate = useNavigate();
  const page = useEditable(
    () => getVenue(venueId!),
    [venueId],
    (values: MetaForm) => updateVenue(venueId!, { ...values, ...coordinatesOf(values) }),
  );
  const v = page.data;
  const colorOf = useMemo(() => colorBySection(v?.sections ?? []), [v]);
  if (page.error || !v) return <LoadState error={page.error} />;
  return (
    <>
      <DetailHeader title={v.name} edit="编辑信息" onEdit={page.edit}>
        {v.sessionCount === 0 && (
          <Button onClick={() => navigate(`/venues/${v.id}/layout`)}>修改座位图</Button>
        )}
        <Button icon={<DownloadOutlined />} onClick={() => exportLayout(v, 'csv')}>
          导出 CSV
        </Button>
        <Button icon={<DownloadOutlined />} onClick={() => exportLayout(v, 'json')}>
          导出 JSON
        </Button>
      </DetailHeader>
      <Row gutter={16}>
        <Col xs={24} xl={7}>
          <Card size="small" style={{ marginBottom: 16 }}>
            <Descriptions
              column={1}
              size="small"
              items={[
                { label: '城市', children: v.city || '—' },
                { label: '地址', children: v.address || '—' },
                { label: '位置', children: <span data-testid="venue-coordinates">{coordinateText(v)}</span> },
                { label: '座位', children: `${v.seatCount.toLocaleString('zh-CN')} 个` },
                { label: '分区', children: v.sections.map((s) => <Tag key={s}>{sectionLabel(s)}</Tag>) },
                {
                  label: '站席区',
                  children: v.zones.length
                    ? v.zones.map((z) => (
                        <Tag key={z.id}>
                          {z.name} · {z.capacity}人
                        </Tag>
                      ))
                    : '无',
                },
                { label: '场次', children: `${v.sessionCount} 场使用中` },
                { label: '创建时间', children: dateTime(v.createdAt) },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} xl={17}>
          <Card size="small" title="座位图">
            <SeatMapCanvas seats={v.seats} colorOf={colorOf} height={600} />
          </Card>
        </Col>
      </Row>
      <Modal
        title="编辑场馆信息"
        open={page.editing}
        onCancel={page.close}
        onOk={() => page.form.submit()}
        okText="保存"
      >
        <Form form={page.form} layout="vertical" onFinish={page.save}>
          <Form.Item name="name" label="场馆名称" rules={[{ required: true }]}>
            <Input />
          </Form.Item>
          <Form.Item name="city" label="城市">
            <Input />
          </Form.Item>
          <Form.Item name="address" label="地址">
            <Input />
          </Form.Item>
          <CoordinateFields />
        </Form>
      </Modal>
    </>
  );
}
