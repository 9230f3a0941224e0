import { useMemo } from 'react';
import { Button, Card, Col, Row, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { VenueDetail } from '@showtix/shared-types';
import { UNAVAILABLE } from '../../seatmap/draw';
import type { PlotSeat } from '../../seatmap/geometry';
import { SeatAssigner } from './SeatAssigner';
import { addSeatTier, addZoneTier, type TierDraft, type TierState } from './tierModel';
import { TierTable } from './TierTable';

interface Props {
  venue: VenueDetail;
  value: TierState;
  onChange: (s: TierState) => void;
  claimedSeats: ReadonlySet<string>;
}

/** Price tiers and the seat map they are painted on: pick seats by seat, row, section, box or lasso, then assign. */
export function TierPainter({ venue, value, onChange, claimedSeats }: Props) {
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

  const update = (key: string, patch: Partial<TierDraft>) =>
    onChange({ ...value, tiers: value.tiers.map((t) => (t.key === key ? { ...t, ...patch } : t)) });
  const remove = (key: string) => {
    const seatTier = new Map([...value.seatTier].filter(([, k]) => k !== key));
    onChange({ tiers: value.tiers.filter((t) => t.key !== key), seatTier });
  };
  const add = () => onChange(addSeatTier(value, `票档${seatTiers.length + 1}`));
  const table = { venue, counts, update, remove };

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
          <TierTable zone={false} tiers={seatTiers} {...table} />
          <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0', fontSize: 12 }}>
            在右侧座位图上选择座位（按区、按排、框选或套索），再点「将选中座位设为」的票档。未分配票档的座位（灰色）不开售。
          </Typography.Paragraph>
        </Card>
        {venue.zones.length > 0 && (
          <Card size="small" title="站席区票档">
            <TierTable zone tiers={zoneTiers} {...table} />
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
        <SeatAssigner
          venue={venue}
          value={value}
          onChange={onChange}
          claimedSeats={claimedSeats}
          seatTiers={seatTiers}
          counts={counts}
          colorOf={colorOf}
        />
      </Col>
    </Row>
  );
}
