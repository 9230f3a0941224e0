import { Button, Text, View } from '@tarojs/components';
import type { ScanView } from '../../../services/gate';
import { formatClock, formatShortDateTime } from '../../../utils/time';

const TITLE: Record<ScanView['result'], string> = {
  admitted: '已入场',
  already_used: '重复入场',
  refunded: '已退款',
  invalid: '无效票',
};

/** Refusals with a title of their own: what the attendant says to the fan first. */
const INVALID_TITLE: Record<string, string> = {
  'other session': '非本场票',
  'other show': '非本场票',
  'not today': '非今日场次',
  'code expired': '二维码已过期',
  'binding expired': '二维码已过期',
  'binding revoked': '已换手机',
  'device signature': '非本人手机',
  'outdated code': '旧版二维码',
  'second factor': '核验不符',
  'needs network': '需联网核验',
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
  'outdated code': '旧版二维码，请观众联网打开票夹后出示新的动态二维码',
  signature: '签名校验失败：伪造或被篡改的票',
  'device signature': '二维码不是购票手机生成的（转发、代挂或伪造），请观众用自己的手机打开票夹',
  'unknown ticket': '查无此票',
  'code expired': '二维码已过期（可能是截图），请观众打开票夹出示实时二维码；一直如此请观众检查手机时间',
  'binding expired': '二维码已过期，请观众联网刷新票夹',
  'binding revoked': '此票已改在另一台手机上出示，这台手机上的二维码已失效',
  'other session': '非本场票：这张票不是本场次的，请观众核对场次',
  'other show': '非本场票：这张票是其他演出的，请观众核对演出',
  'not today': '非今日场次：这张票的场次不在今天，请观众核对日期',
  'bundle expired': '离线数据已过期，请联网更新后再检票',
  'second factor': '人工核验码或证件号不符，不能入场',
  'not real-name': '本场不是实名场次，请观众报票夹中的 6 位人工核验码',
  'not bound': '此票还没有在手机上生成入场码，请观众联网打开票夹',
  'needs network': '人工核验需要联网：请联网后再试，或请观众出示二维码',
};

export function refusal(v: ScanView): string {
  if (v.result === 'refunded') return '已退款：此票已退票或作废，不能入场';
  if (v.result === 'already_used') return '已入场：此票已检票入场，请勿重复放行';
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
          {(v.result === 'invalid' && INVALID_TITLE[v.reason ?? '']) || TITLE[v.result]}
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
