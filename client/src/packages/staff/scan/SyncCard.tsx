import { Text, View } from '@tarojs/components';
import type { SyncReport } from '../../../services/gate';
import { formatClock } from '../../../utils/time';

const CONFLICT: Record<string, string> = {
  already_used: '已在其他入口先行入场（重复使用）',
  refunded: '离线期间已退票',
  invalid: '无效票',
};

/** What the last sync of offline check-ins found: conflicts go to the admin page as well. */
export default function SyncCard({ report }: { report: SyncReport }) {
  return (
    <View className="card sync" data-testid="sync-report">
      <Text className="card__title">离线记录已同步</Text>
      <Text className="card__sub">
        {formatClock(report.at)} 上传 {report.sent} 条：确认入场 {report.admitted} 条
        {report.conflicts.length ? `，冲突 ${report.conflicts.length} 条` : '，无冲突'}
      </Text>
      {report.conflicts.map((c) => (
        <View key={c.ticketNo} className="sync__row" data-testid="sync-conflict" data-result={c.result}>
          <Text className="sync__no">{c.ticketNo}</Text>
          <Text className="sync__why">{CONFLICT[c.result] ?? c.result}</Text>
        </View>
      ))}
    </View>
  );
}
