import { useState } from 'react';
import {
  App,
  Button,
  Card,
  Empty,
  Form,
  InputNumber,
  Input,
  Modal,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { AdminShowSummary, GateCounts, StaffInvite, StaffMember } from '@showtix/shared-types';
import { api, errorText, query } from '../../api/client';
import { useApi } from '../../api/useApi';
import { useSaveForm } from '../../api/useSaveForm';
import { ConfirmButton } from '../../components/ConfirmButton';
import { dateTime } from '../../utils/format';

interface WxUser {
  id: string;
  nickname: string | null;
  createdAt: string;
}

/** The shows to pick from, loaded once by the page for all three tabs. */
type ShowOptions = { value: string; label: string }[];

function StaffTab({ showOptions }: { showOptions: ShowOptions }) {
  const saveForm = useSaveForm();
  const staff = useApi(() => api<{ items: StaffMember[] }>('GET', '/api/v1/admin/staff'), []);
  const [open, setOpen] = useState(false);
  const [users, setUsers] = useState<WxUser[]>([]);
  const [form] = Form.useForm<{ userId: string; showIds: string[] }>();
  const search = async (q: string) => {
    if (!q.trim()) return;
    setUsers((await api<{ items: WxUser[] }>('GET', `/api/v1/admin/staff/users${query({ q })}`)).items);
  };
  const save = (v: { userId: string; showIds: string[] }) =>
    saveForm(() => api('POST', '/api/v1/admin/staff', v), {
      done: '已设为检票人员',
      close: () => setOpen(false),
      reload: staff.reload,
    });
  const remove = async (userId: string) => {
    await api('DELETE', `/api/v1/admin/staff/${userId}`);
    await staff.reload();
  };
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => (form.resetFields(), setOpen(true))}>
          添加检票人员
        </Button>
      </Space>
      <Table<StaffMember>
        rowKey="userId"
        loading={staff.loading}
        dataSource={staff.data?.items}
        pagination={false}
        columns={[
          {
            title: '微信用户',
            render: (_, m) => (
              <>
                {m.nickname ?? '微信用户'} <Typography.Text type="secondary">ID {m.userId}</Typography.Text>
              </>
            ),
          },
          {
            title: '负责演出',
            dataIndex: 'shows',
            render: (s: StaffMember['shows']) => s.map((x) => <Tag key={x.id}>{x.title}</Tag>),
          },
          { title: '加入时间', dataIndex: 'since', render: dateTime },
          {
            title: '',
            width: 80,
            render: (_, m) => (
              <ConfirmButton question="移除该检票人员？" danger action={() => remove(m.userId)}>
                移除
              </ConfirmButton>
            ),
          },
        ]}
      />
      <Modal
        title="添加检票人员"
        open={open}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        okText="保存"
      >
        <Form form={form} layout="vertical" onFinish={save}>
          <Form.Item
            name="userId"
            label="微信用户"
            rules={[{ required: true, message: '请选择用户' }]}
            extra="按用户 ID 或昵称搜索；对方需先在小程序登录过"
          >
            <Select
              showSearch={{ filterOption: false, onSearch: (q) => void search(q) }}
              placeholder="输入用户 ID 或昵称"
              options={users.map((u) => ({
                value: u.id,
                label: `${u.nickname ?? '微信用户'}（ID ${u.id}）`,
              }))}
            />
          </Form.Item>
          <Form.Item name="showIds" label="负责演出" rules={[{ required: true, message: '请选择演出' }]}>
            <Select mode="multiple" options={showOptions} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

function InviteTab({ showOptions }: { showOptions: ShowOptions }) {
  const { message, modal } = App.useApp();
  const invites = useApi(() => api<{ items: StaffInvite[] }>('GET', '/api/v1/admin/staff/invites'), []);
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm();
  const create = async (v: { showIds: string[]; maxUses: number; expiresInHours: number; note: string }) => {
    try {
      const inv = await api<StaffInvite>('POST', '/api/v1/admin/staff/invites', v);
      modal.success({
        title: '邀请码已生成',
        content: (
          <>
            <Typography.Title level={2} copyable style={{ letterSpacing: 4, fontFamily: 'monospace' }}>
              {inv.code}
            </Typography.Title>
            请把邀请码发给检票人员，对方在小程序中输入后即成为所选演出的检票员。
          </>
        ),
      });
      setOpen(false);
      await invites.reload();
    } catch (e) {
      message.error(errorText(e, '生成失败'));
    }
  };
  const revoke = async (code: string) => {
    await api('POST', `/api/v1/admin/staff/invites/${code}/revoke`);
    await invites.reload();
  };
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => (form.resetFields(), setOpen(true))}>
          生成邀请码
        </Button>
      </Space>
      <Table<StaffInvite>
        rowKey="code"
        loading={invites.loading}
        dataSource={invites.data?.items}
        pagination={false}
        columns={[
          {
            title: '邀请码',
            dataIndex: 'code',
            render: (c: string) => (
              <Typography.Text copyable style={{ fontFamily: 'monospace', fontSize: 15 }}>
                {c}
              </Typography.Text>
            ),
          },
          {
            title: '演出',
            dataIndex: 'shows',
            render: (s: StaffInvite['shows']) => s.map((x) => <Tag key={x.id}>{x.title}</Tag>),
          },
          { title: '已用 / 上限', render: (_, i) => `${i.uses} / ${i.maxUses}` },
          { title: '备注', dataIndex: 'note' },
          { title: '有效期至', dataIndex: 'expiresAt', render: dateTime },
          {
            title: '状态',
            render: (_, i) =>
              i.revoked ? (
                <Tag>已作废</Tag>
              ) : Date.parse(i.expiresAt) < Date.now() ? (
                <Tag>已过期</Tag>
              ) : i.uses >= i.maxUses ? (
                <Tag>已用完</Tag>
              ) : (
                <Tag color="green">有效</Tag>
              ),
          },
          {
            title: '',
            width: 80,
            render: (_, i) =>
              !i.revoked && (
                <ConfirmButton question="作废该邀请码？" danger action={() => revoke(i.code)}>
                  作废
                </ConfirmButton>
              ),
          },
        ]}
      />
      <Modal
        title="生成邀请码"
        open={open}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        okText="生成"
      >
        <Form
          form={form}
          layout="vertical"
          onFinish={create}
          initialValues={{ maxUses: 5, expiresInHours: 72 }}
        >
          <Form.Item name="showIds" label="负责演出" rules={[{ required: true, message: '请选择演出' }]}>
            <Select mode="multiple" options={showOptions} />
          </Form.Item>
          <Space>
            <Form.Item name="maxUses" label="可使用人数">
              <InputNumber min={1} max={1000} />
            </Form.Item>
            <Form.Item name="expiresInHours" label="有效期">
              <InputNumber min={1} max={2160} suffix="小时" />
            </Form.Item>
          </Space>
          <Form.Item name="note" label="备注">
            <Input maxLength={100} placeholder="如 南门检票组" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

const CONFLICT_KIND: Record<string, string> = {
  already_used: '重复入场',
  duplicate: '重复入场',
  refunded: '已退票',
};

function GateTab({ showOptions }: { showOptions: ShowOptions }) {
  const [showId, setShowId] = useState<string>();
  const gates = useApi(
    () =>
      showId
        ? api<GateCounts>('GET', `/api/v1/admin/staff/gates${query({ showId })}`)
        : Promise.resolve(undefined),
    [showId],
  );
  const g = gates.data;
  const total = (g?.gates ?? []).reduce((n, x) => n + x.admitted, 0);
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Select
          style={{ width: 320 }}
          placeholder="选择演出"
          options={showOptions}
          value={showId}
          onChange={setShowId}
        />
        {g?.available && <Button onClick={() => void gates.reload()}>刷新</Button>}
      </Space>
      {g && !g.available && <Empty description="检票功能上线后，这里按入口显示入场人数" />}
      {g?.available && (
        <>
          <Typography.Title level={5}>各入口入场人数（共 {total} 人）</Typography.Title>
          <Table
            rowKey="gate"
            pagination={false}
            dataSource={g.gates}
            locale={{ emptyText: '尚无入场记录' }}
            columns={[
              { title: '入口', dataIndex: 'gate' },
              { title: '已入场', dataIndex: 'admitted', align: 'right' },
              { title: '其中人工核验', dataIndex: 'manual', align: 'right' },
            ]}
          />
          <Typography.Title level={5} style={{ marginTop: 20 }}>
            离线检票冲突（同步时发现）
          </Typography.Title>
          <Table
            rowKey={(c) => `${c.ticketNo}-${c.gate}-${c.scannedAt}`}
            pagination={false}
            dataSource={g.conflicts}
            locale={{ emptyText: '没有冲突' }}
            columns={[
              { title: '票号', dataIndex: 'ticketNo' },
              {
                title: '情况',
                dataIndex: 'kind',
                render: (k: string) => <Tag color="red">{CONFLICT_KIND[k] ?? k}</Tag>,
              },
              { title: '入口', dataIndex: 'gate' },
              { title: '扫码时间', dataIndex: 'scannedAt', render: dateTime },
              {
                title: '首次入场',
                render: (_, c) => (c.firstGate ? `${c.firstGate} · ${dateTime(c.firstAt)}` : '—'),
              },
            ]}
          />
        </>
      )}
    </>
  );
}

export function StaffPage() {
  const shows = useApi(() => api<{ items: AdminShowSummary[] }>('GET', '/api/v1/admin/shows'), []);
  const showOptions = (shows.data?.items ?? []).map((s) => ({ value: s.id, label: s.title }));
  return (
    <>
      <div className="page-header">
        <h2>检票人员</h2>
      </div>
      <Card>
        <Tabs
          items={[
            { key: 'staff', label: '检票人员', children: <StaffTab showOptions={showOptions} /> },
            { key: 'invites', label: '邀请码', children: <InviteTab showOptions={showOptions} /> },
            { key: 'gates', label: '各入口检票', children: <GateTab showOptions={showOptions} /> },
          ]}
        />
      </Card>
    </>
  );
}
