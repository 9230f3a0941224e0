import { Card, Table } from 'antd';
import type { WaitlistTierCount } from '@showtix/shared-types';
import { sessionWaitlist } from '../../api/sessions';
import { useApi } from '../../api/useApi';

/**
 * 候补: how many fans wait for returned tickets, per price tier (and the units they ask for),
 * offers open now, paid, and expired unpaid. Shown once a session has had a line.
 */
export function WaitlistPanel({ sessionId }: { sessionId: string }) {
  const list = useApi(() => sessionWaitlist(sessionId), [sessionId]);
  const items = list.data?.items ?? [];
  if (!items.some((t) => t.waiting + t.offered + t.fulfilled + t.lapsed > 0)) return null;
  return (
    <Card size="small" title="候补" style={{ marginBottom: 16 }} data-testid="waitlist-panel">
      <Table<WaitlistTierCount>
        size="small"
        rowKey="tierId"
        pagination={false}
        dataSource={items}
        columns={[
          { title: '票档', dataIndex: 'tierName' },
          { title: '候补人数', dataIndex: 'waiting' },
          { title: '候补张数', dataIndex: 'waitingUnits' },
          { title: '待支付', dataIndex: 'offered' },
          { title: '已购票', dataIndex: 'fulfilled' },
          { title: '已过期', dataIndex: 'lapsed' },
        ]}
      />
    </Card>
  );
}
