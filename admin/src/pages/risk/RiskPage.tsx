import { useState } from 'react';
import { Card, Form, Input, Select, Table, Tabs, Tag, Typography } from 'antd';
import { ID_TYPES, type BlockCreateInput, type BlockEntry, type RiskFlag } from '@showtix/shared-types';
import { addBlock, listBlocks, listFlags, removeBlock } from '../../api/risk';
import { useApi } from '../../api/useApi';
import { useSaveForm } from '../../api/useSaveForm';
import { ConfirmButton } from '../../components/ConfirmButton';
import { FormModal } from '../../components/FormModal';
import { TabTable } from '../../components/TabTable';
import { dateTime } from '../../utils/format';

const KIND: Record<string, string> = { user: '用户', device: '设备', ip: 'IP 地址', id: '证件号' };
const ID_TYPE: Record<string, string> = {
  id_card: '居民身份证',
  passport: '护照',
  hk_macau_permit: '港澳通行证',
  taiwan_permit: '台湾通行证',
};

interface BlockForm {
  kind: string;
  value: string;
  idType?: string;
  reason?: string;
}

function Blocklist() {
  const saveForm = useSaveForm();
  const list = useApi(() => listBlocks(), []);
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<BlockForm>();
  const kind = Form.useWatch('kind', form);
  const add = (v: BlockForm) =>
    saveForm(() => addBlock(v as BlockCreateInput), {
      done: '已加入黑名单，购票与排队将被拒绝',
      close: () => setOpen(false),
      reload: list.reload,
    });
  const remove = async (id: string) => {
    await removeBlock(id);
    await list.reload();
  };
  return (
    <>
      <TabTable<BlockEntry>
        add={{ label: '加入黑名单', onClick: () => (form.resetFields(), setOpen(true)) }}
        note={
          <Typography.Text type="secondary">黑名单中的用户、设备、IP 或证件不能排队和下单。</Typography.Text>
        }
        list={list}
        rowKey="id"
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: '类型', dataIndex: 'kind', width: 100, render: (k: string) => <Tag>{KIND[k] ?? k}</Tag> },
          {
            title: '对象',
            dataIndex: 'value',
            render: (v: string, e) =>
              e.kind === 'id' ? <Typography.Text type="secondary">已加密 {v}</Typography.Text> : v,
          },
          { title: '原因', dataIndex: 'reason' },
          { title: '操作人', dataIndex: 'createdBy', width: 120 },
          { title: '时间', dataIndex: 'createdAt', width: 160, render: dateTime },
          {
            title: '',
            width: 80,
            render: (_, e) => (
              <ConfirmButton question="移出黑名单？" action={() => remove(e.id)}>
                移出
              </ConfirmButton>
            ),
          },
        ]}
      />
      <FormModal<BlockForm>
        form={form}
        title="加入黑名单"
        open={open}
        onClose={() => setOpen(false)}
        okText="加入"
        onFinish={add}
        initialValues={{ kind: 'user', idType: 'id_card' }}
      >
        <Form.Item name="kind" label="类型">
          <Select options={Object.entries(KIND).map(([value, label]) => ({ value, label }))} />
        </Form.Item>
        {kind === 'id' && (
          <Form.Item name="idType" label="证件类型">
            <Select options={ID_TYPES.map((t) => ({ value: t, label: ID_TYPE[t] }))} />
          </Form.Item>
        )}
        <Form.Item
          name="value"
          label={KIND[kind ?? 'user']}
          rules={[{ required: true, message: '请填写' }]}
          extra={kind === 'id' ? '证件号只以加密摘要保存，不保存明文' : undefined}
        >
          <Input />
        </Form.Item>
        <Form.Item name="reason" label="原因">
          <Input maxLength={200} placeholder="如 批量囤票" />
        </Form.Item>
      </FormModal>
    </>
  );
}

function Flags() {
  const flags = useApi(() => listFlags(), []);
  return (
    <>
      <Typography.Paragraph type="secondary">
        同一设备或 IP 上出现过多账号时会被标记，可据此加入黑名单。
      </Typography.Paragraph>
      <Table<RiskFlag>
        rowKey="id"
        loading={flags.loading}
        dataSource={flags.data?.items}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: '暂无风险标记' }}
        columns={[
          {
            title: '类型',
            dataIndex: 'kind',
            width: 100,
            render: (k: string) => <Tag color="orange">{KIND[k] ?? k}</Tag>,
          },
          { title: '设备 / IP', dataIndex: 'subject' },
          { title: '账号数', dataIndex: 'accounts', align: 'right', width: 90 },
          { title: '首次发现', dataIndex: 'firstSeen', width: 160, render: dateTime },
          { title: '最近', dataIndex: 'lastSeen', width: 160, render: dateTime },
        ]}
      />
    </>
  );
}

/** The anti-scalper rules' blocklist and flags (see the fair-access part of the server). */
export function RiskPage() {
  return (
    <>
      <div className="page-header">
        <h2>风控与黑名单</h2>
      </div>
      <Card>
        <Tabs
          items={[
            { key: 'blocklist', label: '黑名单', children: <Blocklist /> },
            { key: 'flags', label: '风险标记', children: <Flags /> },
          ]}
        />
      </Card>
    </>
  );
}
