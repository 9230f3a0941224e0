import { Button, Text, View } from '@tarojs/components';
import { useCountdown } from '../hooks/useCountdown';
import type { Admission } from '../services/queue';
import { formatCountdown } from '../utils/time';

/**
 * The time left of the fan's turn from the waiting room (seat map and 确认订单 of queue-enabled
 * sessions). When it runs out the fan is offered the queue again.
 */
export default function TurnTimer({
  admission,
  onRequeue,
}: {
  admission: Admission | undefined;
  onRequeue: () => void;
}) {
  const left = useCountdown(admission?.expiresAt);
  if (!admission || left <= 0) {
    return (
      <View className="turn turn--over" data-testid="turn-over">
        <Text className="turn__text">购票时间已结束，请重新排队</Text>
        <Button className="btn btn--primary turn__btn" data-testid="turn-requeue" onClick={onRequeue}>
          重新排队
        </Button>
      </View>
    );
  }
  return (
    <View className={`turn ${left < 60_000 ? 'turn--late' : ''}`} data-testid="turn-timer">
      <Text className="turn__text">已轮到您，剩余购票时间 </Text>
      <Text className="turn__clock">{formatCountdown(left)}</Text>
    </View>
  );
}
