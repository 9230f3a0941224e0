import { useState } from 'react';
import {
  App,
  Button,
  Col,
  Form,
  Image,
  Input,
  InputNumber,
  Row,
  Select,
  Space,
  Switch,
  Typography,
  Upload,
} from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { SHOW_CATEGORIES, SHOW_CATEGORY_LABEL, type ShowCreateInput } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { uploadPoster } from '../../api/shows';
import { listVenues } from '../../api/venues';
import { useApi } from '../../api/useApi';
import { AddRowButton, RemoveRowButton } from '../../components/FormListButtons';
import { SearchSelect } from '../../components/SearchSelect';

/** The form holds the API's show fields as they are sent: the server fills in what is left out. */
export type ShowFormValues = ShowCreateInput;

function PosterField({ value, onChange }: { value?: string | null; onChange?: (v: string | null) => void }) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  // The image itself is the request body: the API stores it by content hash and answers its URL.
  const upload = async (file: File) => {
    setBusy(true);
    try {
      const r = await uploadPoster(file);
      onChange?.(r.url);
    } catch (e) {
      message.error(errorText(e, '上传失败'));
    } finally {
      setBusy(false);
    }
    return false;
  };
  return (
    <Space align="start">
      {value ? (
        <Image src={value} width={96} height={128} style={{ objectFit: 'cover', borderRadius: 6 }} />
      ) : (
        <div style={{ width: 96, height: 128, background: '#f0f0f0', borderRadius: 6 }} />
      )}
      <Space orientation="vertical">
        <Upload accept="image/jpeg,image/png,image/webp" showUploadList={false} beforeUpload={upload}>
          <Button icon={<UploadOutlined />} loading={busy}>
            {value ? '更换海报' : '上传海报'}
          </Button>
        </Upload>
        {value && (
          <Button type="link" danger onClick={() => onChange?.(null)} style={{ padding: 0 }}>
            移除
          </Button>
        )}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          JPG / PNG / WebP，不超过 5 MB，建议 3:4 竖版
        </Typography.Text>
      </Space>
    </Space>
  );
}

/** 改签 rules: exchanges allowed, closing this many minutes before a session starts. */
function ExchangeRulesField() {
  return (
    <Form.Item label="改签" tooltip="允许观众把已购门票改签到本演出的其他座位或场次；差价多退少补">
      <Space>
        <Form.Item name={['exchangeRules', 'allowed']} valuePropName="checked" noStyle initialValue={false}>
          <Switch data-testid="show-exchange-allowed" />
        </Form.Item>
        <Typography.Text>开演前</Typography.Text>
        <Form.Item name={['exchangeRules', 'cutoffMinutes']} noStyle initialValue={120}>
          <InputNumber min={0} max={525600} suffix="分钟" style={{ width: 140 }} />
        </Form.Item>
        <Typography.Text>截止</Typography.Text>
      </Space>
    </Form.Item>
  );
}

/** A refund rule's two numbers (both required, from 0), each after the words that say what it is. */
const RULE_NUMBERS = [
  { text: '开演前至少', field: 'hoursBeforeStart', max: 8760, suffix: '小时', width: 120 },
  { text: '退票手续费', field: 'feePercent', max: 100, suffix: '%', width: 100 },
];

function RuleNumber(p: (typeof RULE_NUMBERS)[number] & { name: (string | number)[] }) {
  return (
    <>
      <Col>
        <Typography.Text>{p.text}</Typography.Text>
      </Col>
      <Col>
        <Form.Item name={p.name} noStyle rules={[{ required: true }]}>
          <InputNumber min={0} max={p.max} suffix={p.suffix} style={{ width: p.width }} />
        </Form.Item>
      </Col>
    </>
  );
}

/** The refund-rule tiers: a fee by how long before the start the fan refunds. */
function RefundRulesField() {
  return (
    <Form.Item
      label="退票规则"
      tooltip="距开演还有至少 N 小时时，按对应比例收取手续费；没有匹配的规则即不可退"
    >
      <Form.List name="refundRules">
        {(fields, { add, remove }) => (
          <>
            {fields.map((f) => (
              <Row key={f.key} gutter={8} align="middle" style={{ marginBottom: 8 }}>
                {RULE_NUMBERS.map((n) => (
                  <RuleNumber key={n.field} {...n} name={[f.name, n.field]} />
                ))}
                <Col>
                  <RemoveRowButton label="删除此退票规则" onClick={() => remove(f.name)} />
                </Col>
              </Row>
            ))}
            <AddRowButton
              onClick={() => add({ hoursBeforeStart: 48, feePercent: 20 })}
              style={{ marginTop: 8 }}
            >
              添加规则
            </AddRowButton>
          </>
        )}
      </Form.List>
    </Form.Item>
  );
}

/** The fixed categories (shared-types), as the select offers them: the fan's home page filters by them. */
const CATEGORY_OPTIONS = SHOW_CATEGORIES.map((c) => ({ value: c, label: SHOW_CATEGORY_LABEL[c] }));

/** Show fields: title, category, venue, description, poster and the refund-rule tiers. */
export function ShowForm({ venueLocked }: { venueLocked?: boolean }) {
  const venues = useApi(() => listVenues(), []);
  return (
    <>
      <Form.Item name="title" label="演出名称" rules={[{ required: true, message: '请填写演出名称' }]}>
        <Input maxLength={200} data-testid="show-title" />
      </Form.Item>
      <Form.Item
        name="category"
        label="演出分类"
        tooltip="观众在小程序首页按分类筛选演出"
        rules={[{ required: true, message: '请选择演出分类' }]}
      >
        <Select options={CATEGORY_OPTIONS} style={{ width: 200 }} data-testid="show-category" />
      </Form.Item>
      <Form.Item
        name="venueId"
        label="场馆"
        rules={[{ required: true, message: '请选择场馆' }]}
        extra={venueLocked ? '已有场次的演出不能更换场馆' : undefined}
      >
        <SearchSelect
          disabled={venueLocked}
          loading={venues.loading}
          options={(venues.data?.items ?? []).map((v) => ({
            value: v.id,
            label: `${v.name}（${v.seatCount} 座${v.zoneCount ? ` + ${v.zoneCount} 站席区` : ''}）`,
          }))}
          data-testid="show-venue"
        />
      </Form.Item>
      <Form.Item
        name="showPurchaseLimit"
        label="全演出每人限购"
        tooltip="同一买家在本演出所有场次合计最多可买的张数；不填则只按各场次的限购"
      >
        <InputNumber min={1} max={100} suffix="张" placeholder="不限" style={{ width: 160 }} />
      </Form.Item>
      <ExchangeRulesField />
      <Form.Item name="posterUrl" label="海报">
        <PosterField />
      </Form.Item>
      <Form.Item name="description" label="演出介绍">
        <Input.TextArea rows={4} maxLength={20000} showCount />
      </Form.Item>
      <RefundRulesField />
    </>
  );
}
