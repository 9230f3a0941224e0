import { useMemo } from 'react';
import { Card, Modal, Space, Tag, Typography } from 'antd';
import type { SeatMap } from '@showtix/shared-types';
import { SeatMapCanvas } from '../../components/SeatMapCanvas';
import { PALETTE, UNAVAILABLE } from '../../seatmap/draw';
import type { PlotSeat } from '../../seatmap/geometry';
import { fenToYuan } from '../../utils/money';

/**
 * The seat map the way the mini-program draws it: seats on sale in their tier's colour,
 * held and sold seats grey, the tiers as price chips, standing zones with what is left.
 */
export function FanPreview({
  open,
  onClose,
  map,
}: {
  open: boolean;
  onClose: () => void;
  map: SeatMap | undefined;
}) {
  const colors = useMemo(
    () => new Map((map?.tiers ?? []).map((t, i) => [t.id, t.color || PALETTE[i % PALETTE.length]!])),
    [map],
  );
  const state = useMemo(() => new Map((map?.seats ?? []).map((s) => [s.id, s])), [map]);
  const colorOf = useMemo(
    () => (p: PlotSeat) => {
      const s = state.get(p.id);
      return !s || s.state !== 'available' ? UNAVAILABLE : (colors.get(s.tierId) ?? UNAVAILABLE);
    },
    [state, colors],
  );
  return (
    <Modal
      title="观众视角预览（与小程序选座页一致）"
      open={open}
      onCancel={onClose}
      footer={null}
      width={860}
      destroyOnHidden
    >
      {map && (
        <>
          <Space wrap style={{ marginBottom: 8 }}>
            {map.tiers.map((t) => (
              <Tag key={t.id} color={colors.get(t.id)} style={{ fontSize: 13, padding: '2px 8px' }}>
                {fenToYuan(t.priceFen)} · {t.name}
              </Tag>
            ))}
          </Space>
          {map.seats.length > 0 && (
            <SeatMapCanvas
              seats={map.seats}
              colorOf={colorOf}
              mode="seat"
              height={460}
              testId="fan-preview"
            />
          )}
          {map.zones.length > 0 && (
            <Space wrap style={{ marginTop: 12 }}>
              {map.zones.map((z) => (
                <Card key={z.id} size="small" style={{ minWidth: 180 }}>
                  <Typography.Text strong>{z.name}</Typography.Text>
                  <div>
                    {fenToYuan(map.tiers.find((t) => t.id === z.tierId)?.priceFen ?? 0)} · 剩余 {z.available}/
                    {z.capacity}
                  </div>
                </Card>
              ))}
            </Space>
          )}
        </>
      )}
    </Modal>
  );
}
