import { useState } from 'react';
import { Button, Card, Input, InputNumber, Space, Switch, Table, Tag, Typography } from 'antd';
import { SEAT_POLL_DEFAULT_MS, SEAT_POLL_MAX_MS, type DegradeEntry } from '@showtix/shared-types';
import { dateTime } from '../../utils/format';
import { describe, seatPollNow, SWITCH_LABEL } from './degradeText';
import type { Degrade } from './useDegrade';

export function SeatPollCard({ d }: { d: Degrade }) {
  const [pollS, setPollS] = useState<number | null>(15);
  const s = d.state.data;
  return (
    <Card title="座位状态刷新" size="small">
      <Space wrap>
        <span data-testid="seat-poll-now">当前：{seatPollNow(s)}</span>
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
          loading={d.busy}
          disabled={!pollS}
          onClick={() =>
            void d.flip({ name: 'seat_poll', pollMs: (pollS ?? 0) * 1000 }, '已放慢座位状态刷新')
          }
        >
          放慢刷新
        </Button>
        <Button
          disabled={!s?.seatPollMs}
          loading={d.busy}
          onClick={() => void d.flip({ name: 'seat_poll', pollMs: null }, '已恢复默认刷新间隔')}
        >
          恢复默认
        </Button>
      </Space>
    </Card>
  );
}

export function NonEssentialCard({ d }: { d: Degrade }) {
  return (
    <Card title="非必要功能" size="small">
      <Space>
        <Switch
          aria-label="暂停非必要功能"
          checked={d.state.data?.pauseNonEssential ?? false}
          loading={d.busy}
          onChange={(on) =>
            void d.flip({ name: 'pause_nonessential', on }, on ? '已暂停非必要功能' : '已恢复非必要功能')
          }
        />
        <span>暂停海报上传、订单导出、检票报表、报表页（返回“该功能暂时关闭”）</span>
      </Space>
    </Card>
  );
}

export function ForceQueueCard({ d }: { d: Degrade }) {
  const [sessionId, setSessionId] = useState('');
  return (
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
          loading={d.busy}
          disabled={!/^\d+$/.test(sessionId)}
          onClick={() =>
            void d.flip({ name: 'force_queue', sessionId, on: true }, `场次 ${sessionId} 已强制排队`)
          }
        >
          强制排队
        </Button>
        <Typography.Text type="secondary">该场次所有购票须先经排队等候室</Typography.Text>
      </Space>
      <div style={{ marginTop: 8 }}>
        {(d.state.data?.forcedQueueSessionIds ?? []).map((id) => (
          <Tag
            key={id}
            color="orange"
            closable
            onClose={(e) => {
              e.preventDefault();
              void d.flip({ name: 'force_queue', sessionId: id, on: false }, `场次 ${id} 已取消强制排队`);
            }}
          >
            场次 {id}
          </Tag>
        ))}
      </div>
    </Card>
  );
}

export function ActiveDegradeCard({ d }: { d: Degrade }) {
  return (
    <Card title="已开启的降级" size="small">
      <Table<DegradeEntry>
        rowKey={(e) => `${e.name}:${e.sessionId ?? ''}`}
        loading={d.state.loading}
        dataSource={d.state.data?.items}
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
  );
}
