import { useMemo, useState } from 'react';
import {
  App,
  Button,
  Card,
  Col,
  ColorPicker,
  InputNumber,
  Input,
  Row,
  Segmented,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { DeleteOutlined, LockOutlined, PlusOutlined } from '@ant-design/icons';
import type { VenueDetail } from '@showtix/shared-types';
import { SeatMapCanvas, type SelectMode } from '../../components/SeatMapCanvas';
import { UNAVAILABLE } from '../../seatmap/draw';
import type { PlotSeat } from '../../seatmap/geometry';
import { addSeatTier, addZoneTier, TIER_COLORS, type TierDraft, type TierState } from './tierModel';

interface Props {
  venue: VenueDetail;
  value: TierState;
  onChange: (s: TierState) => void;
  claimedSeats: ReadonlySet<string>;
}

const MODES: { value: SelectMode; label: string }[] = [
  { value: 'seat', label: '单座' },
  { value: 'row', label: '整排' },
  { value: 'section', label: '整区' },
  { value: 'box', label: '框选' },
  { value: 'lasso', label: '套索' },
  { value: 'view', label: '拖动查看' },
];

/** Price tiers and the seat map they are painted on: pick seats by seat, row, section, box or lasso, then assign. */
export function TierPainter({ venue, value, onChange, claimedSeats }: Props) {
  const { message } = App.useApp();
  const [mode, setMode] = useState<SelectMode>('section');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const seatTiers = value.tiers.filter((t) => !t.zoneName);
  const zoneTiers = value.tiers.filter((t) => t.zoneName);
  const colorByKey = useMemo(() => new Map(value.tiers.map((t) => [t.key, t.color])), [value.tiers]);
  const colorOf = useMemo(
    () => (s: PlotSeat) => colorByKey.get(value.seatTier.get(s.id) ?? '') ?? UNAVAILABLE,
    [colorByKey, value.seatTier],
  );
  const counts = useMemo(() => {
    const c = new Map<string, number>();
    for (const k of value.seatTier.values()) c.set(k, (c.get(k) ?? 0) + 1);
    return c;
  }, [value.seatTier]);

  const select = (ids: string[], additive: boolean) => {
    setSelected((prev) => {
      if (mode === 'box' || mode === 'lasso') return new Set(additive ? [...prev, ...ids] : ids);
      // Clicks toggle: clicking a picked row again drops it.
      const next = new Set(prev);
      const all = ids.every((id) => next.has(id));
      for (const id of ids) all ? next.delete(id) : next.add(id);
      return next;
    });
  };
  const assign = (key: string | undefined) => {
    const seatTier = new Map(value.seatTier);
    let locked = 0;
    for (const id of selected) {
      if (claimedSeats.has(id)) {
        locked++;
        continue;
      }
      if (key) seatTier.set(id, key);
      else seatTier.delete(id);
    }
    if (locked) message.warning(`${locked} 个座位已售出或锁定，保持原票档`);
    onChange({ ...value, seatTier });
    setSelected(new Set());
  };
  const update = (key: string, patch: Partial<TierDraft>) =>
    onChange({ ...value, tiers: value.tiers.map((t) => (t.key === key ? { ...t, ...patch } : t)) });
  const remove = (key: string) => {
    const seatTier = new Map([...value.seatTier].filter(([, k]) => k !== key));
    onChange({ tiers: value.tiers.filter((t) => t.key !== key), seatTier });
  };
  const add = () => onChange(addSeatTier(value, `票档${seatTiers.length + 1}`));

  const tierColumns = (zone: boolean) => [
    {
      title: '颜色',
      width: 56,
      render: (_: unknown, t: TierDraft) => (
        <ColorPicker
          size="small"
          disabledAlpha
          value={t.color}
          presets={[{ label: '推荐', colors: TIER_COLORS }]}
          onChange={(c) => update(t.key, { color: c.toHexString() })}
        />
      ),
    },
    ...(zone ? [{ title: '站席区', width: 96, render: (_: unknown, t: TierDraft) => t.zoneName }] : []),
    {
      title: '票档名称',
      render: (_: unknown, t: TierDraft, i: number) => (
        <Input
          value={t.name}
          maxLength={32}
          onChange={(e) => update(t.key, { name: e.target.value })}
          data-testid={`${zone ? 'zone' : 'tier'}-name-${i}`}
        />
      ),
    },
    {
      title: '票价（元）',
      width: 130,
      render: (_: unknown, t: TierDraft, i: number) => (
        <Tooltip title={t.claimed ? '已有售出或锁定的票，不能改价' : undefined}>
          <InputNumber
            value={t.priceYuan}
            min={0}
            max={1000000}
            precision={2}
            step={10}
            prefix="¥"
            disabled={t.claimed > 0}
            onChange={(v) => update(t.key, { priceYuan: v })}
            style={{ width: '100%' }}
            data-testid={`${zone ? 'zone' : 'tier'}-price-${i}`}
          />
        </Tooltip>
      ),
    },
    {
      title: zone ? '容量' : '座位',
      width: 64,
      align: 'right' as const,
      render: (_: unknown, t: TierDraft) =>
        zone ? venue.zones.find((z) => z.name === t.zoneName)?.capacity : (counts.get(t.key) ?? 0),
    },
    {
      title: '',
      width: 40,
      render: (_: unknown, t: TierDraft) =>
        t.claimed > 0 ? (
          <Tooltip title="已有订单，不能删除">
            <LockOutlined style={{ color: '#999' }} />
          </Tooltip>
        ) : (
          <Button
            size="small"
            type="text"
            danger
            icon={<DeleteOutlined />}
            onClick={() => remove(t.key)}
            aria-label={`删除票档 ${t.name}`}
          />
        ),
    },
  ];

  const zoneOff = venue.zones.filter((z) => !zoneTiers.some((t) => t.zoneName === z.name));
  return (
    <Row gutter={16}>
      <Col xs={24} xl={11}>
        <Card
          size="small"
          title="座位票档"
          extra={
            <Button size="small" icon={<PlusOutlined />} onClick={add} data-testid="add-tier">
              添加票档
            </Button>
          }
          style={{ marginBottom: 16 }}
        >
          <Table
            rowKey="key"
            size="small"
            pagination={false}
            dataSource={seatTiers}
            columns={tierColumns(false)}
          />
          <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0', fontSize: 12 }}>
            在右侧座位图上选择座位（按区、按排、框选或套索），再点「将选中座位设为」的票档。未分配票档的座位（灰色）不开售。
          </Typography.Paragraph>
        </Card>
        {venue.zones.length > 0 && (
          <Card size="small" title="站席区票档">
            <Table
              rowKey="key"
              size="small"
              pagination={false}
              dataSource={zoneTiers}
              columns={tierColumns(true)}
            />
            {zoneOff.map((z) => (
              <Button
                key={z.id}
                size="small"
                type="dashed"
                style={{ marginTop: 8, marginRight: 8 }}
                onClick={() => onChange(addZoneTier(value, z.name))}
              >
                开售 {z.name}
              </Button>
            ))}
          </Card>
        )}
      </Col>
      <Col xs={24} xl={13}>
        <Card size="small" title="选座分配">
          <Space wrap style={{ marginBottom: 8 }}>
            <Segmented
              options={MODES}
              value={mode}
              onChange={(m) => setMode(m as SelectMode)}
              data-testid="select-mode"
            />
            <Tag color={selected.size ? 'blue' : undefined} data-testid="selected-count">
              已选 {selected.size} 座
            </Tag>
            <Button size="small" onClick={() => setSelected(new Set(venue.seats.map((s) => s.id)))}>
              全选
            </Button>
            <Button size="small" onClick={() => setSelected(new Set())} disabled={!selected.size}>
              清除选择
            </Button>
          </Space>
          <Space wrap style={{ marginBottom: 8 }}>
            <Typography.Text type="secondary">将选中座位设为：</Typography.Text>
            {seatTiers.map((t, i) => (
              <Button
                key={t.key}
                size="small"
                disabled={!selected.size}
                onClick={() => assign(t.key)}
                data-testid={`assign-${i}`}
                icon={
                  <span
                    style={{
                      display: 'inline-block',
                      width: 10,
                      height: 10,
                      borderRadius: 2,
                      background: t.color,
                    }}
                  />
                }
              >
                {t.name || '未命名'}
              </Button>
            ))}
            <Button size="small" danger disabled={!selected.size} onClick={() => assign(undefined)}>
              不售
            </Button>
          </Space>
          <SeatMapCanvas
            seats={venue.seats}
            colorOf={colorOf}
            selected={selected}
            mode={mode}
            onSelect={select}
            height={520}
            testId="tier-seatmap"
          />
          <div className="legend" style={{ marginTop: 8 }}>
            {seatTiers.map((t) => (
              <span key={t.key}>
                <i style={{ background: t.color }} />
                {t.name} {counts.get(t.key) ?? 0} 座
              </span>
            ))}
            <span>
              <i style={{ background: UNAVAILABLE }} />
              不售 {venue.seats.length - value.seatTier.size} 座
            </span>
            {claimedSeats.size > 0 && (
              <span>
                <LockOutlined /> 已售或锁定 {claimedSeats.size} 座（不能改动）
              </span>
            )}
            <Typography.Text type="secondary">提示：框选、套索时按住 Shift 可追加选择</Typography.Text>
          </div>
        </Card>
      </Col>
    </Row>
  );
}
