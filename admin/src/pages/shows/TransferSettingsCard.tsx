import { useEffect, useState } from 'react';
import { App, Button, Card, Form, InputNumber, Switch } from 'antd';
import type { TransferSettings } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { getTransferSettings, saveTransferSettings } from '../../api/transfers';
import { useApi } from '../../api/useApi';

/** The organiser's 转赠 rules of a show: allowed or not, the cutoff, once per ticket. */
export function TransferSettingsCard({ showId }: { showId: string }) {
  const { message } = App.useApp();
  const { data } = useApi(() => getTransferSettings(showId), [showId]);
  const [form] = Form.useForm<TransferSettings>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (data) form.setFieldsValue(data);
  }, [data, form]);
  const save = async (v: TransferSettings) => {
    setBusy(true);
    try {
      await saveTransferSettings(showId, v);
      message.success('转赠规则已保存');
    } catch (e) {
      message.error(errorText(e, '保存失败'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card size="small" title="转赠规则" style={{ marginBottom: 16 }} data-testid="transfer-settings">
      <Form form={form} layout="vertical" size="small" onFinish={save} disabled={!data}>
        <Form.Item name="enabled" label="允许转赠" valuePropName="checked">
          <Switch data-testid="transfer-enabled" />
        </Form.Item>
        <Form.Item
          name="cutoffMinutes"
          label="截止时间（开演前多少分钟停止转赠）"
          rules={[{ required: true, message: '请填写截止时间' }]}
        >
          <InputNumber
            min={0}
            max={43200}
            addonAfter="分钟"
            style={{ width: '100%' }}
            data-testid="transfer-cutoff"
          />
        </Form.Item>
        <Form.Item name="onceOnly" label="每张票限转赠一次" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="transfer-save">
          保存
        </Button>
      </Form>
    </Card>
  );
}
