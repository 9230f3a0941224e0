import { useState } from 'react';
import { App, Form, Input, InputNumber, Modal, Radio, Select } from 'antd';
import type { CompIssueInput, ReservationsView } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { issueComp } from '../../api/comps';

interface Fields {
  name: string;
  phone: string;
  idNumber?: string;
  seatIds?: string[];
  zoneId?: string;
  quantity?: number;
  note?: string;
}

/** One request, one key: a retried 确认 after a lost answer gives the same comp, never two. */
const newKey = () => `comp-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/** The request: the person, their ID on a real-name session, and the units. */
function toBody(f: Fields, mode: 'seats' | 'zone', key: string, realName: boolean): CompIssueInput {
  const person = {
    idempotencyKey: key,
    name: f.name,
    phone: f.phone,
    ...(f.note ? { note: f.note } : {}),
    ...(realName && f.idNumber
      ? { attendee: { name: f.name, idType: 'id_card' as const, idNumber: f.idNumber } }
      : {}),
  };
  return mode === 'seats'
    ? { ...person, seatIds: f.seatIds ?? [] }
    : { ...person, zoneId: f.zoneId ?? '', quantity: f.quantity ?? 1 };
}

/**
 * 赠票: tickets from reserved units to a named person. Real-name sessions take the person's ID
 * card (one ID, one ticket: one ticket per comp then).
 */
export function CompIssueModal(props: {
  open: boolean;
  sessionId: string;
  realName: boolean;
  view: ReservationsView;
  onClose: () => void;
  done: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<Fields>();
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(newKey);
  const seated = props.view.seats.length > 0 || props.view.zones.length === 0;
  const [mode, setMode] = useState<'seats' | 'zone'>(seated ? 'seats' : 'zone');

  const submit = async () => {
    const f = await form.validateFields().catch(() => undefined);
    if (!f) return;
    const body = toBody(f, mode, key, props.realName);
    setBusy(true);
    try {
      const c = await issueComp(props.sessionId, body);
      message.success(`已赠票，领取码 ${c.claimCode}`);
      form.resetFields();
      setKey(newKey());
      props.done();
    } catch (e) {
      message.error(errorText(e, '赠票失败'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={props.open}
      title="赠票"
      okText="确认赠票"
      cancelText="返回"
      okButtonProps={{ loading: busy }}
      onOk={submit}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="name" label="姓名" rules={[{ required: true, message: '请填写姓名' }]}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item
          name="phone"
          label="手机号"
          rules={[{ required: true, pattern: /^1\d{10}$/, message: '请填写11位手机号' }]}
        >
          <Input maxLength={11} />
        </Form.Item>
        {props.realName && (
          <Form.Item
            name="idNumber"
            label="身份证号（实名场次，一证一票）"
            rules={[{ required: true, message: '请填写证件号' }]}
          >
            <Input maxLength={18} />
          </Form.Item>
        )}
        <UnitFields view={props.view} realName={props.realName} mode={mode} setMode={setMode} />
        <Form.Item name="note" label="备注（如赞助商、工作人员）">
          <Input maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Which reserved units the comp takes: seats not given yet, or a number of a zone's units. */
function UnitFields(props: {
  view: ReservationsView;
  realName: boolean;
  mode: 'seats' | 'zone';
  setMode: (m: 'seats' | 'zone') => void;
}) {
  const { mode, setMode } = props;
  const free = props.view.seats.filter((s) => !s.issued);
  return (
    <>
      {props.view.seats.length > 0 && props.view.zones.length > 0 && (
        <Radio.Group value={mode} onChange={(e) => setMode(e.target.value)} style={{ marginBottom: 12 }}>
          <Radio value="seats">座位</Radio>
          <Radio value="zone">区域</Radio>
        </Radio.Group>
      )}
      {mode === 'seats' ? (
        <Form.Item name="seatIds" label="预留座位" rules={[{ required: true, message: '请选择预留座位' }]}>
          <Select
            mode="multiple"
            options={free.map((s) => ({ value: s.seatId, label: s.label }))}
            placeholder={free.length ? '选择要赠出的预留座位' : '没有未赠出的预留座位'}
          />
        </Form.Item>
      ) : (
        <>
          <Form.Item name="zoneId" label="区域" rules={[{ required: true, message: '请选择区域' }]}>
            <Select
              options={props.view.zones.map((z) => ({
                value: z.zoneId,
                label: `${z.name}（可赠 ${z.reserved - z.issued}）`,
              }))}
            />
          </Form.Item>
          <Form.Item name="quantity" label="张数" initialValue={1}>
            <InputNumber min={1} max={props.realName ? 1 : 10} />
          </Form.Item>
        </>
      )}
    </>
  );
}
