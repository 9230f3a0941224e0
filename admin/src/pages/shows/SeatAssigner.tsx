import { useState } from 'react';
import { App, Button, Card, Segmented, Space, Tag, Typography } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import type { VenueDetail } from '@showtix/shared-types';
import { SeatMapCanvas, type SelectMode } from '../../components/SeatMapCanvas';
import { UNAVAILABLE } from '../../seatmap/draw';
import type { PlotSeat } from '../../seatmap/geometry';
import { nextSelection, paintSeats, type TierDraft, type TierState } from './tierModel';

const MODES: { value: SelectMode; label: string }[] = [
  { value: 'seat', label: '单座' },
  { value: 'row', label: '整排' },
  { value: 'section', label: '整区' },
  { value: 'box', label: '框选' },
  { value: 'lasso', label: '套索' },
  { value: 'view', label: '拖动查看' },
];

/** The seat map to paint on: pick seats by seat, row, section, box or lasso, then assign a tier. */
interface SeatAssignerProps {
  venue: VenueDetail;
  value: TierState;
  onChange: (s: TierState) => void;
  claimedSeats: ReadonlySet<string>;
  seatTiers: TierDraft[];
  counts: ReadonlyMap<string, number>;
  colorOf: (s: PlotSeat) => string;
}

export function SeatAssigner(p: SeatAssignerProps) {
  const { venue, value, onChange, claimedSeats, seatTiers, colorOf } = p;
  const { message } = App.useApp();
  const [mode, setMode] = useState<SelectMode>('section');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const select = (ids: string[], additive: boolean) =>
    setSelected((prev) => nextSelection(prev, ids, mode, additive));
  const assign = (key: string | undefined) => {
    const { seatTier, locked } = paintSeats(value.seatTier, selected, claimedSeats, key);
    if (locked) message.warning(`${locked} 个座位已售出或锁定，保持原票档`);
    onChange({ ...value, seatTier });
    setSelected(new Set());
  };
  return (
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
      <AssignBar seatTiers={seatTiers} disabled={!selected.size} assign={assign} />
      <SeatMapCanvas
        seats={venue.seats}
        colorOf={colorOf}
        selected={selected}
        mode={mode}
        onSelect={select}
        height={520}
        testId="tier-seatmap"
      />
      <Legend {...p} />
    </Card>
  );
}

/** 将选中座位设为: one button per seat tier, and 不售. */
function AssignBar(p: {
  seatTiers: TierDraft[];
  disabled: boolean;
  assign: (key: string | undefined) => void;
}) {
  const { seatTiers, disabled, assign } = p;
  return (
    <Space wrap style={{ marginBottom: 8 }}>
      <Typography.Text type="secondary">将选中座位设为：</Typography.Text>
      {seatTiers.map((t, i) => (
        <Button
          key={t.key}
          size="small"
          disabled={disabled}
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
      <Button size="small" danger disabled={disabled} onClick={() => assign(undefined)}>
        不售
      </Button>
    </Space>
  );
}

/** Seats per tier, unsold seats, and the seats that cannot be changed. */
function Legend(p: Pick<SeatAssignerProps, 'venue' | 'value' | 'claimedSeats' | 'seatTiers' | 'counts'>) {
  const { venue, value, claimedSeats, seatTiers, counts } = p;
  return (
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
  );
}
