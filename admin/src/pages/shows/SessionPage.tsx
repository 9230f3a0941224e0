import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, Card, Col, DatePicker, Form, InputNumber, Row, Space, Switch, Tag } from 'antd';
import { EyeOutlined, SaveOutlined } from '@ant-design/icons';
import { enterDoesNotSubmit } from '../../utils/forms';
import dayjs, { type Dayjs } from 'dayjs';
import { useNavigate, useParams } from 'react-router-dom';
import type { AdminSessionDetail, AdminShowDetail, SeatMap, VenueDetail } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { createSession, getSession, putTiers, sessionSeatMap, updateSession } from '../../api/sessions';
import { getShow } from '../../api/shows';
import { getVenue } from '../../api/venues';
import { useApi } from '../../api/useApi';
import { LoadState } from '../../components/LoadState';
import { SESSION_STATUS } from '../../utils/format';
import { FanPreview } from './FanPreview';
import { SessionActions } from './sessionActions';
import { ClosedNotice, SessionChangeActions, SessionChangeProgress } from './SessionChangePanel';
import { CompPanel } from './CompPanel';
import { TierPainter } from './TierPainter';
import { WaitlistPanel } from './WaitlistPanel';
import { initialState, problems, stateFromSession, toTierSpecs, type TierState } from './tierModel';

interface Fields {
  startsAt: Dayjs;
  saleStartsAt: Dayjs;
  holdMinutes: number;
  purchaseLimit: number;
  realName: boolean;
  queueEnabled: boolean;
  queueRatePerMin?: number | null;
}

interface Loaded {
  show: AdminShowDetail;
  venue: VenueDetail;
  session?: AdminSessionDetail;
}

async function load(showId: string | undefined, sessionId: string | undefined): Promise<Loaded> {
  const session = sessionId ? await getSession(sessionId) : undefined;
  const show = await getShow(session?.showId ?? showId!);
  const venue = await getVenue(show.venueId);
  return { show, venue, session };
}

/** Draft tiers as the fan's seat map (for the preview before the session exists). */
function draftMap(venue: VenueDetail, tiers: TierState): SeatMap {
  const specs = toTierSpecs(tiers);
  const idOf = new Map(tiers.tiers.map((t, i) => [t.key, t.id ?? `draft${i}`]));
  return {
    sessionId: 'draft',
    seating: venue.seats.length ? 'reserved' : 'zone',
    tiers: tiers.tiers.map((t, i) => ({
      id: idOf.get(t.key)!,
      name: t.name,
      priceFen: specs[i]!.priceFen ?? 0,
      color: t.color,
    })),
    seats: venue.seats
      .filter((s) => tiers.seatTier.has(s.id))
      .map((s) => ({ ...s, tierId: idOf.get(tiers.seatTier.get(s.id)!)!, state: 'available' as const })),
    zones: tiers.tiers
      .filter((t) => t.zoneName)
      .map((t) => {
        const z = venue.zones.find((x) => x.name === t.zoneName)!;
        return {
          id: z.id,
          name: z.name,
          tierId: idOf.get(t.key)!,
          capacity: z.capacity,
          available: z.capacity,
        };
      }),
  };
}

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

export function SessionPage() {
  const { showId, sessionId } = useParams();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [form] = Form.useForm<Fields>();
  const { data, error, reload } = useApi(() => load(showId, sessionId), [showId, sessionId]);
  const [tiers, setTiers] = useState<TierState>();
  const [saving, setSaving] = useState(false);
  const [preview, setPreview] = useState<SeatMap>();
  const s = data?.session;

  useEffect(() => {
    if (!data) return;
    setTiers(s ? stateFromSession(s) : initialState(data.venue));
    form.setFieldsValue(
      s
        ? { ...s, startsAt: dayjs(s.startsAt), saleStartsAt: dayjs(s.saleStartsAt) }
        : {
            startsAt: dayjs().add(30, 'day').hour(19).minute(30).second(0),
            saleStartsAt: dayjs().add(7, 'day').hour(12).minute(0).second(0),
            holdMinutes: 15,
            purchaseLimit: 4,
            realName: false,
            queueEnabled: false,
          },
    );
  }, [data, s, form]);
  const claimed = useMemo(() => new Set(s?.claimedSeatIds ?? []), [s]);
  const issues = tiers ? problems(tiers) : [];
  const queueOn = Form.useWatch('queueEnabled', form);

  if (error || !data || !tiers) return <LoadState error={error} />;
  const ended = s?.status === 'ended' || s?.status === 'cancelled';

  const save = async (f: Fields) => {
    if (issues.length) return void message.error(issues[0]);
    setSaving(true);
    const fields = {
      startsAt: f.startsAt.toISOString(),
      saleStartsAt: f.saleStartsAt.toISOString(),
      holdMinutes: f.holdMinutes,
      purchaseLimit: f.purchaseLimit,
      realName: f.realName,
      queueEnabled: f.queueEnabled,
      queueRatePerMin: f.queueEnabled ? (f.queueRatePerMin ?? null) : null,
    };
    try {
      if (!s) {
        const created = await createSession(data.show.id, { ...fields, tiers: toTierSpecs(tiers) });
        message.success('场次已创建');
        navigate(`/sessions/${created.id}`, { replace: true });
      } else {
        await updateSession(s.id, fields);
        await putTiers(s.id, toTierSpecs(tiers));
        message.success('已保存');
        await reload();
      }
    } catch (e) {
      message.error(errorText(e, '保存失败'));
    } finally {
      setSaving(false);
    }
  };
  const showPreview = async () => {
    setPreview(s ? await sessionSeatMap(s.id) : draftMap(data.venue, tiers));
  };
  return (
    <>
      <Form form={form} layout="vertical" onFinish={save} disabled={ended} onKeyDown={enterDoesNotSubmit}>
        <div className="page-header">
          <h2>
            {data.show.title} · {s ? '场次设置' : '新建场次'}{' '}
            {s && <Tag color={SESSION_STATUS[s.status].color}>{SESSION_STATUS[s.status].label}</Tag>}
          </h2>
          <Space>
            <Button
              icon={<EyeOutlined />}
              onClick={showPreview}
              disabled={false}
              data-testid="fan-preview-btn"
            >
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
        {ended && <ClosedNotice status={s!.status} />}
        {s && <SessionChangeProgress key={`${s.id}-${s.status}-${s.startsAt}`} sessionId={s.id} />}
        {s && <WaitlistPanel sessionId={s.id} />}
        {s && !ended && <ClaimedNotice count={s.claimedSeatIds.length} />}
        {issues.length > 0 && (
          <Alert type="error" showIcon title={issues.join('；')} style={{ marginBottom: 16 }} />
        )}
        <Card size="small" title="场次信息" style={{ marginBottom: 16 }}>
          <Row gutter={16}>
            <Col xs={24} md={5}>
              <Form.Item
                name="startsAt"
                label="演出开始时间"
                rules={[{ required: true, message: '请选择时间' }]}
              >
                <DatePicker
                  showTime={{ format: 'HH:mm' }}
                  format="YYYY-MM-DD HH:mm"
                  style={{ width: '100%' }}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={5}>
              <Form.Item
                name="saleStartsAt"
                label="开售时间"
                dependencies={['startsAt']}
                rules={[
                  { required: true, message: '请选择时间' },
                  ({ getFieldValue }) => ({
                    validator: (_, v: Dayjs) =>
                      v && getFieldValue('startsAt') && !v.isBefore(getFieldValue('startsAt'))
                        ? Promise.reject(new Error('开售时间必须早于演出开始时间'))
                        : Promise.resolve(),
                  }),
                ]}
              >
                <DatePicker
                  showTime={{ format: 'HH:mm' }}
                  format="YYYY-MM-DD HH:mm"
                  style={{ width: '100%' }}
                  disabled={!!s && s.status !== 'presale'}
                />
              </Form.Item>
            </Col>
            <Col xs={12} md={3}>
              <Form.Item name="holdMinutes" label="锁座时长" tooltip="下单后未支付，座位保留多久">
                <InputNumber min={1} max={120} suffix="分钟" style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={12} md={3}>
              <Form.Item name="purchaseLimit" label="每人限购">
                <InputNumber min={1} max={10} suffix="张" style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={8} md={2}>
              <Form.Item name="realName" label="实名制" valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
            <Col xs={8} md={2}>
              <Form.Item name="queueEnabled" label="排队购票" valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
            <Col xs={8} md={4}>
              <Form.Item name="queueRatePerMin" label="放行速度" tooltip="排队开启时，每分钟从队列放行的人数">
                <InputNumber min={1} disabled={!queueOn} suffix="人/分" style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
        </Card>
        <TierPainter venue={data.venue} value={tiers} onChange={setTiers} claimedSeats={claimed} />
        <FanPreview open={!!preview} onClose={() => setPreview(undefined)} map={preview} />
      </Form>
      {s && <CompPanel sessionId={s.id} realName={s.realName} seats={data.venue.seats} closed={ended} />}
    </>
  );
}
