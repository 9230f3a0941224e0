import { Card, Descriptions, Form, Input, Modal, Tag, type FormInstance } from 'antd';
import { sectionLabel, type VenueDetail } from '@showtix/shared-types';
import { dateTime } from '../../utils/format';
import { CoordinateFields, coordinateText } from './CoordinateFields';

export interface MetaForm {
  name: string;
  city: string;
  address: string;
  latitude?: number | null;
  longitude?: number | null;
}

function Zones({ v }: { v: VenueDetail }) {
  if (!v.zones.length) return '无';
  return v.zones.map((z) => (
    <Tag key={z.id}>
      {z.name} · {z.capacity}人
    </Tag>
  ));
}

/** The venue's facts: city, address, position, seats, sections, zones and use. */
export function VenueInfoCard({ v }: { v: VenueDetail }) {
  return (
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
          { label: '站席区', children: <Zones v={v} /> },
          { label: '场次', children: `${v.sessionCount} 场使用中` },
          { label: '创建时间', children: dateTime(v.createdAt) },
        ]}
      />
    </Card>
  );
}

interface EditProps {
  open: boolean;
  close: () => void;
  form: FormInstance<MetaForm>;
  save: (values: MetaForm) => void;
}

/** "编辑场馆信息": name, city, address and coordinates. */
export function EditVenueModal({ open, close, form, save }: EditProps) {
  return (
    <Modal title="编辑场馆信息" open={open} onCancel={close} onOk={() => form.submit()} okText="保存">
      <Form form={form} layout="vertical" onFinish={save}>
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
  );
}
