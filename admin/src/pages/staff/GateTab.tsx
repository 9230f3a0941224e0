import { useState } from 'react';
import { Button, Empty, Space, Table, Tag, Typography } from 'antd';
import { gateCounts } from '../../api/staff';
import { useApi } from '../../api/useApi';
import { SearchSelect } from '../../components/SearchSelect';
import { dateTime } from '../../utils/format';
import type { ShowOptions } from './showOptions';

const CONFLICT_KIND: Record<string, string> = {
  already_used: '重复入场',
  duplicate: '重复入场',
  refunded: '已退票',
};

export function GateTab({ showOptions }: { showOptions: ShowOptions }) {
  const [showId, setShowId] = useState<string>();
  const gates = useApi(() => (showId ? gateCounts(showId) : Promise.resolve(undefined)), [showId]);
  const g = gates.data;
  const total = (g?.gates ?? []).reduce((n, x) => n + x.admitted, 0);
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <SearchSelect
          name="选择演出"
          style={{ width: 320 }}
          placeholder="选择演出（可输入名称搜索）"
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
