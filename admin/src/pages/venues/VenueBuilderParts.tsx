import type { ReactNode } from 'react';
import { Alert, Card, Col, Form, Input, Row, Statistic, Tabs, Tag, Typography, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { sectionLabel, type LayoutPreview } from '@showtix/shared-types';
import { SeatMapCanvas } from '../../components/SeatMapCanvas';
import type { PlotSeat } from '../../seatmap/geometry';
import { BlockEditor } from './BlockEditor';
import type { Imported } from './useVenueBuilder';
import { CoordinateFields } from './CoordinateFields';

/**
 * Name, city, address and map coordinates; fixed here once the venue exists (only its layout can
 * be replaced here; the detail page's 编辑信息 edits them).
 */
export function BasicInfoCard({ venueId }: { venueId: string | undefined }) {
  return (
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
      <CoordinateFields disabled={!!venueId} />
    </Card>
  );
}

/** Where the seats come from: the grid generator, or a CSV / JSON file. */
export function LayoutSourceCard(p: {
  venueId: string | undefined;
  source: 'generator' | 'import';
  setSource: (s: 'generator' | 'import') => void;
  imported: Imported | null;
  importFile: (file: File) => Promise<boolean>;
}) {
  const { venueId, source, setSource, imported, importFile } = p;
  return (
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
  );
}

/** The preview's figures, its problems, the seat map and its legend. */
export function PreviewCard(p: {
  preview: LayoutPreview;
  seats: PlotSeat[];
  sections: string[];
  colorOf: (s: Pick<PlotSeat, 'section'>) => string;
  zones: { name: string; capacity: number }[];
  problem: ReactNode;
  stale: boolean;
}) {
  const { preview, seats, sections, colorOf, zones, problem, stale } = p;
  const standing = zones.reduce((n, z) => n + (Number(z?.capacity) || 0), 0);
  return (
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
      {stale && (
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
      <div style={stale ? { opacity: 0.35 } : undefined}>
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
  );
}
