import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Form,
  Input,
  Row,
  Space,
  Statistic,
  Tabs,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { InboxOutlined, SaveOutlined } from '@ant-design/icons';
import { useNavigate, useParams } from 'react-router-dom';
import { sectionLabel, type LayoutPreview, type SeatSpecInput } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { createVenue, getVenue, parseLayout, replaceLayout } from '../../api/venues';
import { useGeneratedPreview } from './useGeneratedPreview';
import { SeatMapCanvas } from '../../components/SeatMapCanvas';
import { colorBySection } from '../../seatmap/draw';
import type { PlotSeat } from '../../seatmap/geometry';
import { BlockEditor, newBlock, toBlockSpec, type BlockForm } from './BlockEditor';
import { ZoneEditor } from './ZoneEditor';

type Preview = LayoutPreview;

interface VenueForm {
  name: string;
  city: string;
  address: string;
  blocks: BlockForm[];
  zones: { name: string; capacity: number }[];
}

const INITIAL: VenueForm = {
  name: '',
  city: '',
  address: '',
  blocks: [newBlock(0), { ...newBlock(1, newBlock(0)) }],
  zones: [],
};

/** Seats of a preview as plot seats (the generator gives no ids yet: the label is the id). */
function plot(seats: SeatSpecInput[]): PlotSeat[] {
  return seats.map((s) => ({ ...s, id: `${s.section}|${s.row}|${s.number}` }));
}

/** New venue, or (under /venues/:venueId/layout) a new layout for a venue no session uses yet. */
export function VenueBuilderPage() {
  const { venueId } = useParams();
  const [form] = Form.useForm<VenueForm>();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [source, setSource] = useState<'generator' | 'import'>('generator');
  const [imported, setImported] = useState<(Preview & { fileName: string }) | null>(null);
  const [saving, setSaving] = useState(false);

  const { generated, problem, stale, regenerate } = useGeneratedPreview(form);
  // Editing: the current seats start as the "imported" layout; the generator can replace them.
  useEffect(() => {
    if (!venueId) return;
    void getVenue(venueId).then((v) => {
      form.setFieldsValue({
        name: v.name,
        city: v.city,
        address: v.address,
        zones: v.zones.map(({ name, capacity }) => ({ name, capacity })),
      });
      setImported({
        seats: v.seats.map(({ section, row, number, x, y }) => ({ section, row, number, x, y })),
        duplicates: [],
        overlaps: 0,
        fileName: '当前座位图',
      });
      setSource('import');
    });
  }, [venueId, form]);

  const preview =
    source === 'generator' ? generated : (imported ?? { seats: [], duplicates: [], overlaps: 0 });
  const seats = useMemo(() => plot(preview.seats), [preview.seats]);
  const sections = useMemo(() => [...new Set(preview.seats.map((s) => s.section))].sort(), [preview.seats]);
  const colorOf = useMemo(() => colorBySection(sections), [sections]);

  const importFile = async (file: File) => {
    const text = await file.text();
    const format = file.name.toLowerCase().endsWith('.json') ? 'json' : 'csv';
    try {
      const r = await parseLayout({
        format,
        text,
      });
      setImported({ ...r, fileName: file.name });
      if (r.zones.length) form.setFieldValue('zones', r.zones);
      message.success(
        `已读取 ${r.seats.length} 个座位${r.zones.length ? `、${r.zones.length} 个站席区` : ''}`,
      );
    } catch (e) {
      message.error(errorText(e, '文件读取失败'));
    }
    return false;
  };

  const save = async (v: VenueForm) => {
    setSaving(true);
    try {
      const layout =
        source === 'generator'
          ? { blocks: (v.blocks ?? []).map(toBlockSpec) }
          : { seats: imported?.seats ?? [] };
      const venue = venueId
        ? await replaceLayout(venueId, {
            zones: v.zones,
            ...layout,
          })
        : await createVenue({
            name: v.name,
            city: v.city,
            address: v.address,
            zones: v.zones,
            ...layout,
          });
      message.success(`场馆「${venue.name}」已${venueId ? '更新' : '创建'}，共 ${venue.seatCount} 个座位`);
      navigate(`/venues/${venue.id}`);
    } catch (e) {
      message.error(errorText(e, '保存失败'));
    } finally {
      setSaving(false);
    }
  };

  const zones = Form.useWatch('zones', form) ?? [];
  const standing = zones.reduce((n, z) => n + (Number(z?.capacity) || 0), 0);
  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={INITIAL}
      onValuesChange={(c) => 'blocks' in c && regenerate()}
      onFinish={save}
    >
      <div className="page-header">
        <h2>{venueId ? '修改座位图' : '新建场馆'}</h2>
        <Space>
          <Button onClick={() => navigate(venueId ? `/venues/${venueId}` : '/venues')}>取消</Button>
          <Button
            type="primary"
            htmlType="submit"
            icon={<SaveOutlined />}
            loading={saving}
            disabled={(!preview.seats.length && !zones.length) || preview.duplicates.length > 0}
            data-testid="save-venue"
          >
            保存场馆
          </Button>
        </Space>
      </div>
      <Row gutter={16}>
        <Col xs={24} xl={10}>
          <Card size="small" title="基本信息" style={{ marginBottom: 16 }}>
            <Form.Item name="name" label="场馆名称" rules={[{ required: true, message: '请填写场馆名称' }]}>
              <Input placeholder="如 上海大剧院" disabled={!!venueId} data-testid="venue-name" />
            </Form.Item>
            <Row gutter={12}>
              <Col span={8}>
                <Form.Item name="city" label="城市">
                  <Input placeholder="上海" disabled={!!venueId} />
                </Form.Item>
              </Col>
              <Col span={16}>
                <Form.Item name="address" label="地址">
                  <Input disabled={!!venueId} />
                </Form.Item>
              </Col>
            </Row>
          </Card>
          <Card size="small" style={{ marginBottom: 16 }}>
            <Tabs
              activeKey={source}
              onChange={(k) => setSource(k as 'generator' | 'import')}
              items={[
                { key: 'generator', label: '网格生成器', children: <BlockEditor /> },
                {
                  key: 'import',
                  label: '导入 CSV / JSON',
                  children: (
                    <>
                      <Upload.Dragger accept=".csv,.json" showUploadList={false} beforeUpload={importFile}>
                        <p className="ant-upload-drag-icon">
                          <InboxOutlined />
                        </p>
                        <p>点击或拖入座位图文件</p>
                        <Typography.Text type="secondary">
                          CSV 表头：section,row,number,x,y（或 区,排,座,x,y）；JSON：{'{seats, zones}'}
                        </Typography.Text>
                      </Upload.Dragger>
                      {imported && (
                        <Alert
                          style={{ marginTop: 12 }}
                          type="success"
                          showIcon
                          title={`${imported.fileName}：${imported.seats.length} 个座位`}
                        />
                      )}
                      {venueId && (
                        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
                          也可以切换到「网格生成器」重新生成整个座位图。
                        </Typography.Paragraph>
                      )}
                    </>
                  ),
                },
              ]}
            />
          </Card>
          <Card size="small" title="站席区（无座）" style={{ marginBottom: 16 }}>
            <ZoneEditor />
          </Card>
        </Col>
        <Col xs={24} xl={14}>
          <Card size="small" title="座位图预览（观众视角）" style={{ position: 'sticky', top: 16 }}>
            <Row gutter={16} style={{ marginBottom: 12 }}>
              <Col span={6}>
                <Statistic title="座位" value={preview.seats.length} suffix="个" data-testid="seat-count" />
              </Col>
              <Col span={6}>
                <Statistic title="分区" value={sections.length} />
              </Col>
              <Col span={6}>
                <Statistic title="站席" value={standing} suffix="人" />
              </Col>
              <Col span={6}>
                <Statistic title="总容量" value={preview.seats.length + standing} />
              </Col>
            </Row>
            {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 8 }} />}
            {stale && source === 'generator' && (
              <Alert
                type="warning"
                showIcon
                title="预览未更新：请先修正标红的区块字段"
                style={{ marginBottom: 8 }}
                data-testid="preview-stale"
              />
            )}
            {preview.duplicates.length > 0 && (
              <Alert
                type="error"
                showIcon
                title={`座位编号重复：${preview.duplicates.slice(0, 5).join('、')}`}
                style={{ marginBottom: 8 }}
              />
            )}
            {preview.overlaps > 0 && (
              <Alert
                type="warning"
                showIcon
                title={`有 ${preview.overlaps} 个座位与其他座位重叠，请调整区块位置`}
                style={{ marginBottom: 8 }}
              />
            )}
            <div style={stale && source === 'generator' ? { opacity: 0.35 } : undefined}>
              <SeatMapCanvas seats={seats} colorOf={colorOf} height={560} />
            </div>
            <div className="legend" style={{ marginTop: 8 }}>
              {sections.map((s) => (
                <span key={s}>
                  <i style={{ background: colorOf({ section: s }) }} />
                  {sectionLabel(s)} {preview.seats.filter((x) => x.section === s).length}
                </span>
              ))}
              {zones
                .filter((z) => z?.name)
                .map((z) => (
                  <Tag key={z.name}>
                    站席 · {z.name} {z.capacity}人
                  </Tag>
                ))}
            </div>
          </Card>
        </Col>
      </Row>
    </Form>
  );
}
