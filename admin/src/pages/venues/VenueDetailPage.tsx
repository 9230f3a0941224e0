import { useMemo } from 'react';
import { Button, Card, Col, Row } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import { getVenue, updateVenue } from '../../api/venues';
import { useEditable } from '../../api/useEditable';
import { LoadState } from '../../components/LoadState';
import { DetailHeader } from '../../components/PageParts';
import { SeatMapCanvas } from '../../components/SeatMapCanvas';
import { colorBySection } from '../../seatmap/draw';
import { exportLayout } from '../../api/venues';
import { coordinatesOf } from './CoordinateFields';
import { EditVenueModal, VenueInfoCard, type MetaForm } from './VenueDetailParts';

export function VenueDetailPage() {
  const navigate = useNavigate();
  const page = useEditable('venueId', getVenue, (id, values: MetaForm) =>
    updateVenue(id, { ...values, ...coordinatesOf(values) }),
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
          <VenueInfoCard v={v} />
        </Col>
        <Col xs={24} xl={17}>
          <Card size="small" title="座位图">
            <SeatMapCanvas seats={v.seats} colorOf={colorOf} height={600} />
          </Card>
        </Col>
      </Row>
      <EditVenueModal open={page.editing} close={page.close} form={page.form} save={page.save} />
    </>
  );
}
