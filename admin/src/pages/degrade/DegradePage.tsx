import { useState } from 'react';
import { Alert, App, Button, Card, Input, InputNumber, Space, Switch, Table, Tag, Typography } from 'antd';
import {
  SEAT_POLL_DEFAULT_MS,
  SEAT_POLL_MAX_MS,
  type DegradeEntry,
  type DegradeSetInput,
  type DegradeState,
} from '@showtix/shared-types';
import { api, errorText } from '../../api/client';
import { useApi } from '../../api/useApi';
import { dateTime } from '../../utils/format';

const PATH = '/api/v1/admin/degrade';

const SWITCH_LABEL: Record<DegradeEntry['name'], string> = {
  seat_poll: '座位状态放慢刷新',
  force_queue: '场次强制排队',
  pause_nonessential: '暂停非必要功能',
};

function describe(e: DegradeEntry): string {
  if (e.name === 'seat_poll') return `每 ${e.value / 1000} 秒刷新一次`;
  if (e.name === 'force_queue') return `场次 ${e.sessionId}`;
  return '海报上传、订单导出、检票报表、报表页';
}

/**
 * 熔断降级: the switches an operator turns during an overload. Every flip is applied by every
 * server instance within moments and written to the 操作日志.
 */
export function DegradePage() {
  const { message } = App.useApp();
  const state = useApi(() => api<DegradeState>('GET', PATH), []);
  const [reason, setReason] = useState('');
  const [pollS, setPollS] = useState<number | null>(15);
  const [sessionId, setSessionId] = useState('');
  const [busy, setBusy] = useState(false);
  const s = state.data;

  const flip = async (input: DegradeSetInput, done: string) => {
    setBusy(true);
    try {
      await api('PUT', PATH, { ...input, ...(reason.trim() ? { reason: reason.trim() } : {}) });
      message.success(done);
      await state.reload();
    } catch (e) {
      message.error(errorText(e, '操作失败'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        熔断降级
      </Typography.Title>
      <Alert
        type="info"
        showIcon
        title="开票高峰时可临时关闭或放慢部分功能，保证购票主流程。每次切换立即在所有服务器生效，并记入操作日志。"
      />
      {state.error && <Alert type="error" title={errorText(state.error, '加载失败')} />}
      <Input
        aria-label="原因"
        placeholder="切换原因（记入操作日志），如 开票高峰"
        maxLength={200}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      <Card title="座位状态刷新" size="small">
        <Space wrap>
          <span data-testid="seat-poll-now">
            当前：
            {s?.seatPollMs
              ? `已放慢为每 ${s.seatPollMs / 1000} 秒`
              : `默认每 ${SEAT_POLL_DEFAULT_MS / 1000} 秒`}
          </span>
          <InputNumber
            aria-label="刷新间隔（秒）"
            min={SEAT_POLL_DEFAULT_MS / 1000}
            max={SEAT_POLL_MAX_MS / 1000}
            value={pollS}
            onChange={(v) => setPollS(v)}
            suffix="秒"
          />
          <Button
            type="primary"
            loading={busy}
            disabled={!pollS}
            onClick={() =>
              void flip({ name: 'seat_poll', pollMs: (pollS ?? 0) * 1000 }, '已放慢座位状态刷新')
            }
          >
            放慢刷新
          </Button>
          <Button
            disabled={!s?.seatPollMs}
            loading={busy}
            onClick={() => void flip({ name: 'seat_poll', pollMs: null }, '已恢复默认刷新间隔')}
          >
            恢复默认
          </Button>
        </Space>
      </Card>
      <Card title="非必要功能" size="small">
        <Space>
          <Switch
            aria-label="暂停非必要功能"
            checked={s?.pauseNonEssential ?? false}
            loading={busy}
            onChange={(on) =>
              void flip({ name: 'pause_nonessential', on }, on ? '已暂停非必要功能' : '已恢复非必要功能')
            }
          />
          <span>暂停海报上传、订单导出、检票报表、报表页（返回“该功能暂时关闭”）</span>
        </Space>
      </Card>
      <Card title="场次强制排队" size="small">
        <Space wrap>
          <Input
            aria-label="场次 ID"
            placeholder="场次 ID"
            style={{ width: 160 }}
            value={sessionId}
            onChange={(e) => setSessionId(e.target.value.trim())}
          />
          <Button
            type="primary"
            loading={busy}
            disabled={!/^\d+$/.test(sessionId)}
            onClick={() =>
              void flip({ name: 'force_queue', sessionId, on: true }, `场次 ${sessionId} 已强制排队`)
            }
          >
            强制排队
          </Button>
          <Typography.Text type="secondary">该场次所有购票须先经排队等候室</Typography.Text>
        </Space>
        <div style={{ marginTop: 8 }}>
          {(s?.forcedQueueSessionIds ?? []).map((id) => (
            <Tag
              key={id}
              color="orange"
              closable
              onClose={(e) => {
                e.preventDefault();
                void flip({ name: 'force_queue', sessionId: id, on: false }, `场次 ${id} 已取消强制排队`);
              }}
            >
              场次 {id}
            </Tag>
          ))}
        </div>
      </Card>
      <Card title="已开启的降级" size="small">
        <Table<DegradeEntry>
          rowKey={(e) => `${e.name}:${e.sessionId ?? ''}`}
          loading={state.loading}
          dataSource={s?.items}
          pagination={false}
          locale={{ emptyText: '无，系统按正常模式运行' }}
          columns={[
            { title: '开关', dataIndex: 'name', render: (n: DegradeEntry['name']) => SWITCH_LABEL[n] },
            { title: '内容', render: (_, e) => describe(e) },
            { title: '原因', dataIndex: 'reason' },
            { title: '操作人', dataIndex: 'updatedBy', width: 120 },
            { title: '时间', dataIndex: 'updatedAt', width: 160, render: dateTime },
          ]}
        />
      </Card>
    </Space>
  );
}
