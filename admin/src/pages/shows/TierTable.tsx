import { Button, ColorPicker, Input, InputNumber, Table, Tooltip } from 'antd';
import { DeleteOutlined, LockOutlined } from '@ant-design/icons';
import type { VenueDetail } from '@showtix/shared-types';
import { TIER_COLORS, type TierDraft } from './tierModel';

export interface TierTableProps {
  /** Zone tiers (站席) show their zone and its capacity; seat tiers their painted seat count. */
  zone: boolean;
  tiers: TierDraft[];
  venue: VenueDetail;
  counts: ReadonlyMap<string, number>;
  update: (key: string, patch: Partial<TierDraft>) => void;
  remove: (key: string) => void;
}

/** One table of tiers: colour, name, price (fixed once sold), seats or capacity, delete. */
export function TierTable(p: TierTableProps) {
  return <Table rowKey="key" size="small" pagination={false} dataSource={p.tiers} columns={tierColumns(p)} />;
}

function tierColumns({ zone, venue, counts, update, remove }: TierTableProps) {
  return [
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
}
