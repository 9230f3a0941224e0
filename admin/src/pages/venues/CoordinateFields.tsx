import { Col, Form, InputNumber, Row, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import type { VenueSummary } from '@showtix/shared-types';

/** Empty, or a number in [min, max]: the server's range (shared-types LatitudeSchema / LongitudeSchema). */
const range = (min: number, max: number, what: string): Rule => ({
  validator: (_, v: number | null | undefined) =>
    v === null || v === undefined || (v >= min && v <= max)
      ? Promise.resolve()
      : Promise.reject(new Error(`${what}应在 ${min} 到 ${max} 之间`)),
});

/** Both or neither: a latitude without its longitude is no place. */
const paired =
  (other: 'latitude' | 'longitude'): Rule =>
  ({ getFieldValue }) => ({
    validator: (_, v: number | null | undefined) =>
      (v === null || v === undefined) ===
      (getFieldValue(other) === null || getFieldValue(other) === undefined)
        ? Promise.resolve()
        : Promise.reject(new Error('经纬度须同时填写或同时清空')),
  });

/**
 * 纬度 and 经度 of a venue, for the fan's 导航: GCJ-02, as Tencent's coordinate picker (or any
 * WeChat map) gives them. Left empty, the show page offers no 导航.
 */
export function CoordinateFields({ disabled = false }: { disabled?: boolean }) {
  return (
    <>
      <Row gutter={12}>
        <Col span={12}>
          <Form.Item
            name="latitude"
            label="纬度"
            dependencies={['longitude']}
            rules={[range(-90, 90, '纬度'), paired('longitude')]}
          >
            <InputNumber
              style={{ width: '100%' }}
              placeholder="31.190617"
              step={0.000001}
              disabled={disabled}
              data-testid="venue-latitude"
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="longitude"
            label="经度"
            dependencies={['latitude']}
            rules={[range(-180, 180, '经度'), paired('latitude')]}
          >
            <InputNumber
              style={{ width: '100%' }}
              placeholder="121.495853"
              step={0.000001}
              disabled={disabled}
              data-testid="venue-longitude"
            />
          </Form.Item>
        </Col>
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
