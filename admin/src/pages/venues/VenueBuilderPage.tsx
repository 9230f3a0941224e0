import { Button, Card, Col, Form, Row, Space } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useNavigate, useParams } from 'react-router-dom';
import { PageHeader } from '../../components/PageParts';
import { BasicInfoCard, LayoutSourceCard, PreviewCard } from './VenueBuilderParts';
import { INITIAL, useVenueBuilder, type VenueForm } from './useVenueBuilder';
import { ZoneEditor } from './ZoneEditor';

/** New venue, or (under /venues/:venueId/layout) a new layout for a venue no session uses yet. */
export function VenueBuilderPage() {
  const { venueId } = useParams();
  const [form] = Form.useForm<VenueForm>();
  const navigate = useNavigate();
  const b = useVenueBuilder(form, venueId);
  const zones = Form.useWatch('zones', form) ?? [];
  const { preview } = b;
  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={INITIAL}
      onValuesChange={(c) => 'blocks' in c && b.regenerate()}
      onFinish={b.save}
    >
      <PageHeader title={venueId ? '修改座位图' : '新建场馆'}>
        <Space>
          <Button onClick={() => navigate(venueId ? `/venues/${venueId}` : '/venues')}>取消</Button>
          <Button
            type="primary"
            htmlType="submit"
            icon={<SaveOutlined />}
            loading={b.saving}
            disabled={(!preview.seats.length && !zones.length) || preview.duplicates.length > 0}
            data-testid="save-venue"
          >
            保存场馆
          </Button>
        </Space>
      </PageHeader>
      <Row gutter={16}>
        <Col xs={24} xl={10}>
          <BasicInfoCard venueId={venueId} />
          <LayoutSourceCard {...b} venueId={venueId} />
          <Card size="small" title="站席区（无座）" style={{ marginBottom: 16 }}>
            <ZoneEditor />
          </Card>
        </Col>
        <Col xs={24} xl={14}>
          <PreviewCard {...b} zones={zones} stale={b.stale && b.source === 'generator'} />
        </Col>
      </Row>
    </Form>
  );
}
