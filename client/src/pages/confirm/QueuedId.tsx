import { Text, View } from '@tarojs/components';
import { ID_TYPE_LABELS, type AttendeeInput } from '../../services/attendees';
import { loadEntry, type QueueJoin } from '../../services/queue';
import { maskIdNumber } from '../../services/shared';

/** The ID this phone queued with for a real-name session's waiting room, if any. */
export function queuedId(sessionId: string): Required<QueueJoin> | undefined {
  const join = loadEntry(sessionId)?.join;
  return join?.idType && join.idNumber ? { idType: join.idType, idNumber: join.idNumber } : undefined;
}

/**
 * The server's rule (orders/service.ts requireQueuedAttendee): the ID that queued must be one of
 * the order's attendees; the others may be anyone (friends bought for in the same order).
 */
export function coversQueuedId(attendees: AttendeeInput[], id: Required<QueueJoin> | undefined): boolean {
  if (!id) return true;
  const want = id.idNumber.trim().toUpperCase();
  return attendees.some((a) => a.idNumber.trim().toUpperCase() === want);
}

/** Says the rule as it is, before the fan fills in attendees. */
export default function QueuedIdNote({ id, missing }: { id: Required<QueueJoin>; missing: boolean }) {
  return (
    <View className={`queued-id${missing ? ' queued-id--missing' : ''}`} data-testid="queued-id">
      <Text className="queued-id__title">
        排队证件：{ID_TYPE_LABELS[id.idType]} {maskIdNumber(id.idNumber.trim().toUpperCase())}
      </Text>
      <Text className="queued-id__text">
        该证件持有人须为本订单观演人之一，其余观演人可为同行亲友（每人一证一票）。
      </Text>
    </View>
  );
}
