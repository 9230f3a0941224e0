import { Col, Form, InputNumber, Row, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import type { VenueSummary } from '@showtix/shared-types';

type Axis = 'latitude' | 'longitude';

/** Empty, or a number in [min, max]: the server's range (shared-types LatitudeSchema / LongitudeSchema). */
const range = (min: number, max: number, what: string): Rule => ({
  validator: (_, v: number | null | undefined) =>
    v === null || v === undefined || (v >= min && v <= max)
      ? Promise.resolve()
      : Promise.reject(new Error(`${what}应在 ${min} 到 ${max} 之间`)),
});

/** Both or neither: a latitude without its longitude is no place. */
const paired =
  (other: Axis): Rule =>
  ({ getFieldValue }) => ({
    validator: (_, v: number | null | undefined) =>
      (v === null || v === undefined) ===
      (getFieldValue(other) === null || getFieldValue(other) === undefined)
        ? Promise.resolve()
        : Promise.reject(new Error('经纬度须同时填写或同时清空')),
  });

/** One of the pair: its range, the other field it must come with, an example value. */
function CoordinateField(p: {
  name: Axis;
  other: Axis;
  label: string;
  max: number;
  example: string;
  disabled: boolean;
}) {
  return (
    <Col span={12}>
      <Form.Item
        name={p.name}
        label={p.label}
        dependencies={[p.other]}
        rules={[range(-p.max, p.max, p.label), paired(p.other)]}
      >
        <InputNumber
          style={{ width: '100%' }}
          placeholder={p.example}
          step={0.000001}
          disabled={p.disabled}
          data-testid={`venue-${p.name}`}
        />
      </Form.Item>
    </Col>
  );
}

/**
 * 纬度 and 经度 of a venue, for the fan's 导航: GCJ-02, as Tencent's coordinate picker (or any
 * WeChat map) gives them. Left empty, the show page offers no 导航.
 */
export function CoordinateFields({ disabled = false }: { disabled?: boolean }) {
  return (
    <>
      <Row gutter={12}>
        <CoordinateField
          name="latitude"
          other="longitude"
          label="纬度"
          max={90}
          example="31.190617"
          disabled={disabled}
        />
        <CoordinateField
          name="longitude"
          other="latitude"
          label="经度"
          max={180}
          example="121.495853"
          disabled={disabled}
        />
      </Row>
      <Typography.Text type="secondary" style={{ display: 'block', marginTop: -8, marginBottom: 12 }}>
        GCJ-02 坐标（微信与腾讯地图所用），可在腾讯地图坐标拾取器中查得；填写后演出页显示「导航」。
      </Typography.Text>
    </>
  );
}

/** The form's coordinates as the API takes them: empty fields clear them (null), not "unchanged". */
export function coordinatesOf(v: { latitude?: number | null; longitude?: number | null }) {
  return { latitude: v.latitude ?? null, longitude: v.longitude ?? null };
}

/** The detail page's line: where the venue is, or that the fans get no 导航. */
export function coordinateText(v: Pick<VenueSummary, 'latitude' | 'longitude'>): string {
  return v.latitude === null || v.longitude === null
    ? '未填写（演出页不显示导航）'
    : `${v.latitude}, ${v.longitude}`;
}
