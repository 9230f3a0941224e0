import { Button, Text, View } from '@tarojs/components';
import type { ScanView } from '../../../services/gate';
import { formatClock, formatShortDateTime } from '../../../utils/time';

const TITLE: Record<ScanView['result'], string> = {
  admitted: '已入场',
  already_used: '已使用',
  refunded: '已退票',
  invalid: '无效票',
};

const ICON: Record<ScanView['result'], string> = {
  admitted: '✓',
  already_used: '✕',
  refunded: '✕',
  invalid: '✕',
};

/** Why a code was refused, in the staff member's words. */
export const REASONS: Record<string, string> = {
  unreadable: '无法识别的二维码，不是本平台的电子票',
  signature: '签名校验失败：伪造或被篡改的票',
  'unknown ticket': '查无此票',
  'code expired': '动态码已过期（可能是截图），请观众打开票夹出示实时二维码',
  'other session': '不是本场次的门票',
};

export function refusal(v: ScanView): string {
  if (v.result === 'refunded') return '此票已退票或作废，不能入场';
  if (v.result === 'already_used') return '此票已检票入场，请勿重复放行';
  return REASONS[v.reason ?? ''] ?? (v.reason ? `无效：${v.reason}` : '无效的门票');
}

function UsedBefore({ v }: { v: ScanView }) {
  if (!v.usedAt) return null;
  return (
    <View className="result__used" data-testid="result-used">
      <Text className="result__line">
        首次入场：{formatShortDateTime(v.usedAt).slice(0, 6)} {formatClock(v.usedAt)}
      </Text>
      {v.usedGate ? <Text className="result__line">入口：{v.usedGate}</Text> : null}
      {v.usedBy ? (
        <Text className="result__line">
          核验人：{/^\d+$/.test(v.usedBy) ? `工作人员 #${v.usedBy}` : v.usedBy}
        </Text>
      ) : null}
    </View>
  );
}

/**
 * The big result of one scan: green for admitted, red for every refusal, with what the staff
 * member must check (the attendee of real-name sessions) or tell (when and where it was used).
 */
export default function ScanResult({ v, onNext }: { v: ScanView; onNext: () => void }) {
  const ok = v.result === 'admitted';
  return (
    <View
      className={`result result--${ok ? 'ok' : 'bad'}`}
      data-testid="scan-result"
      data-result={v.result}
      data-offline={v.offline ? '1' : '0'}
    >
      <View className="result__top">
        <Text className="result__icon">{ICON[v.result]}</Text>
        <Text className="result__title" data-testid="result-title">
          {TITLE[v.result]}
        </Text>
        {!ok ? (
          <Text className="result__why" data-testid="result-why">
            {refusal(v)}
          </Text>
        ) : null}
        {v.offline ? <Text className="result__badge">离线核验 · 联网后自动同步</Text> : null}
      </View>
      <View className="result__card">
        {v.seat ? <Text className="result__seat">{v.seat}</Text> : null}
        {v.ticketId ? <Text className="result__line">票号 {v.ticketId}</Text> : null}
        {ok && v.attendee ? (
          <View className="result__attendee" data-testid="result-attendee">
            <Text className="result__check">实名核验：请核对观众证件</Text>
            <Text className="result__person">{v.attendee.name}</Text>
            <Text className="result__idno">{v.attendee.idNumber}</Text>
          </View>
        ) : null}
        <UsedBefore v={v} />
        {v.gateCount !== undefined ? (
          <Text className="result__count" data-testid="result-count">
            本入口已入场 {v.gateCount} 人
          </Text>
        ) : null}
      </View>
      <Button className="btn result__next" data-testid="scan-next" onClick={onNext}>
        {ok && v.attendee ? '核对无误，继续检票' : '继续检票'}
      </Button>
    </View>
  );
}
