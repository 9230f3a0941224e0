import { useState } from 'react';
import { App, Button, Space, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import type { OpsOverview, ParkedMessage, RefundCase } from '@showtix/shared-types';
import { api } from '../../api/client';
import { useApi } from '../../api/useApi';
import { ConfirmButton } from '../../components/ConfirmButton';
import { NoticeProblems } from './NoticeProblems';
import { StuckWork } from './StuckWork';
import { ResolveCase } from './ResolveCase';
import { OPS, OpsTable, timeColumn, type Act } from './OpsTable';

const QUEUE: Record<string, string> = {
  tickets: '出票',
  'late-payments': '超时支付',
  refunds: '退款',
  inventory: '库存释放',
  notices: '通知',
};

/** 运维处理: what automatic recovery could not settle, each with its repair. */
export function OpsPage() {
  const { message } = App.useApp();
  const { data: d, loading, reload } = useApi(() => api<OpsOverview>('GET', OPS), []);
  const [resolving, setResolving] = useState<RefundCase>();
  const act: Act = async (path, done) => {
    await api('POST', `${OPS}${path}`);
    message.success(done);
    await reload();
  };
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Space>
        <Typography.Title level={4} style={{ margin: 0 }}>
          运维处理
        </Typography.Title>
        <Button icon={<ReloadOutlined />} onClick={() => void reload()}>
          刷新
        </Button>
      </Space>
      <DeadLetters d={d} loading={loading} act={act} />
      <StuckWork d={d} loading={loading} act={act} onResolve={setResolving} />
      <NoticeProblems items={d?.noticeProblems} loading={loading} />
      <ResolveCase
        c={resolving}
        done={() => {
          setResolving(undefined);
          void reload();
        }}
      />
    </Space>
  );
}

/** 死信队列: the count per queue, then the parked messages to requeue or discard. */
function DeadLetters({ d, loading, act }: { d: OpsOverview | undefined; loading: boolean; act: Act }) {
  return (
    <OpsTable<ParkedMessage>
      title="死信队列"
      rowKey="id"
      loading={loading}
      dataSource={d?.deadLetters.parked}
      columns={[
        { title: '队列', dataIndex: 'queue', width: 100, render: (q: string) => QUEUE[q] ?? q },
        { title: '消息', dataIndex: 'payload', ellipsis: true },
        { title: '错误', dataIndex: 'error', ellipsis: true },
        timeColumn<ParkedMessage>('时间', 'parkedAt'),
        {
          title: '',
          width: 150,
          render: (_, m) => (
            <Space>
              <ConfirmButton
                question="重新投递这条消息？"
                action={() => act(`/dead-letters/${m.id}/requeue`, '已重新投递')}
              >
                重新投递
              </ConfirmButton>
              <ConfirmButton
                danger
                question="丢弃这条消息？"
                action={() => act(`/dead-letters/${m.id}/discard`, '已丢弃')}
              >
                丢弃
              </ConfirmButton>
            </Space>
          ),
        },
      ]}
    >
      <Space wrap style={{ marginBottom: 12 }}>
        {d?.deadLetters.queues === null ? (
          <Tag color="red">消息队列不可用</Tag>
        ) : (
          Object.entries(d?.deadLetters.queues ?? {}).map(([q, n]) => (
            <Tag key={q} color={n > 0 ? 'orange' : undefined}>
              {QUEUE[q] ?? q}：{n}
            </Tag>
          ))
        )}
        <Typography.Text type="secondary">死信会自动重试 3 次，仍失败的消息列在下方。</Typography.Text>
      </Space>
    </OpsTable>
  );
}
