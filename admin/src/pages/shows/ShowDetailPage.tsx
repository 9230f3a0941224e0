import { Button, Col, Row } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import { getShow, updateShow } from '../../api/shows';
import { useEditable } from '../../api/useEditable';
import { LoadState } from '../../components/LoadState';
import { DetailHeader } from '../../components/PageParts';
import type { ShowFormValues } from './ShowForm';
import { SessionTable, ShowInfoCard } from './ShowDetailParts';
import { ShowFormDrawer } from './ShowFormDrawer';
import { TransferSettingsCard } from './TransferSettingsCard';

export function ShowDetailPage() {
  const navigate = useNavigate();
  const page = useEditable('showId', getShow, (id, v: ShowFormValues) => updateShow(id, v));
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
          <ShowInfoCard show={show} />
          <TransferSettingsCard showId={show.id} />
        </Col>
        <Col xs={24} xl={17}>
          <SessionTable sessions={show.sessions} reload={page.reload} />
        </Col>
      </Row>
      <ShowFormDrawer
        title="编辑演出"
        okText="保存"
        open={page.editing}
        close={page.close}
        form={page.form}
        onFinish={page.save}
        venueLocked={show.sessionCount > 0}
      />
    </>
  );
}
