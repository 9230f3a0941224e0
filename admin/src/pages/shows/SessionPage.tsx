import { Alert, Button, Form, Space, Tag } from 'antd';
import { EyeOutlined, SaveOutlined } from '@ant-design/icons';
import type { AdminSessionDetail } from '@showtix/shared-types';
import { enterDoesNotSubmit } from '../../utils/forms';
import { LoadState } from '../../components/LoadState';
import { SESSION_STATUS } from '../../utils/format';
import { FanPreview } from './FanPreview';
import { SessionActions } from './sessionActions';
import { ClosedNotice, SessionChangeActions, SessionChangeProgress } from './SessionChangePanel';
import { CompPanel } from './CompPanel';
import { TierPainter } from './TierPainter';
import { WaitlistPanel } from './WaitlistPanel';
import { SessionInfoCard } from './SessionInfoCard';
import { useSessionPage } from './useSessionPage';

/** Seats in live orders keep their tier and price: the painter locks them. */
function ClaimedNotice({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      title={`已有 ${count} 个座位售出或锁定：它们的票档和票价不能再改，其余座位和票档仍可调整。`}
    />
  );
}

interface HeaderProps {
  title: string;
  s?: AdminSessionDetail;
  saving: boolean;
  showPreview: () => void;
  reload: () => void;
}

function SessionHeader({ title, s, saving, showPreview, reload }: HeaderProps) {
  return (
    <div className="page-header">
      <h2>
        {title} · {s ? '场次设置' : '新建场次'}{' '}
        {s && <Tag color={SESSION_STATUS[s.status].color}>{SESSION_STATUS[s.status].label}</Tag>}
      </h2>
      <Space>
        <Button icon={<EyeOutlined />} onClick={showPreview} disabled={false} data-testid="fan-preview-btn">
          观众视角预览
        </Button>
        {s && <SessionActions s={s} done={reload} />}
        {s && <SessionChangeActions s={s} done={reload} />}
        <Button
          type="primary"
          htmlType="submit"
          icon={<SaveOutlined />}
          loading={saving}
          data-testid="save-session"
        >
          {s ? '保存修改' : '创建场次'}
        </Button>
      </Space>
    </div>
  );
}

export function SessionPage() {
  const p = useSessionPage();
  const { data, tiers } = p;
  if (p.error || !data || !tiers) return <LoadState error={p.error} />;
  const s = data.session;
  const ended = s?.status === 'ended' || s?.status === 'cancelled';
  return (
    <>
      <Form form={p.form} layout="vertical" onFinish={p.save} disabled={ended} onKeyDown={enterDoesNotSubmit}>
        <SessionHeader
          title={data.show.title}
          s={s}
          saving={p.saving}
          showPreview={p.showPreview}
          reload={p.reload}
        />
        {ended && <ClosedNotice status={s!.status} />}
        {s && <SessionChangeProgress key={`${s.id}-${s.status}-${s.startsAt}`} sessionId={s.id} />}
        {s && <WaitlistPanel sessionId={s.id} />}
        {s && !ended && <ClaimedNotice count={s.claimedSeatIds.length} />}
        {p.issues.length > 0 && (
          <Alert type="error" showIcon title={p.issues.join('；')} style={{ marginBottom: 16 }} />
        )}
        <SessionInfoCard form={p.form} s={s} />
        <TierPainter venue={data.venue} value={tiers} onChange={p.setTiers} claimedSeats={p.claimed} />
        <FanPreview open={!!p.preview} onClose={p.closePreview} map={p.preview} />
      </Form>
      {s && <CompPanel sessionId={s.id} realName={s.realName} seats={data.venue.seats} closed={ended} />}
    </>
  );
}
