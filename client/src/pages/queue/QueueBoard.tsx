import type { QueueStatus } from '@showtix/shared-types';
import { Button, Text, View } from '@tarojs/components';
import { useCountdown } from '../../hooks/useCountdown';
import { etaText, queueProgress, type QueueEntry } from '../../services/queue';
import { groupThousands as group } from '../../utils/money';
import { formatCountdown } from '../../utils/time';
import type { QueueView } from './useQueue';
import Icon from '../../components/icon/Icon';
import type { IconName } from '../../components/icon/icons';

/** Slow rings breathing around the fan's number: calm, never a spinner. */
function Pulse({ label, value, testid }: { label: string; value: string; testid: string }) {
  return (
    <View className="pulse">
      <View className="pulse__ring" />
      <View className="pulse__ring pulse__ring--late" />
      <View className="pulse__core">
        <Text className="pulse__label">{label}</Text>
        <Text className={`pulse__value ${value.length > 7 ? 'pulse__value--long' : ''}`} data-testid={testid}>
          {value}
        </Text>
      </View>
    </View>
  );
}

function Waiting({ s, entry }: { s: QueueStatus; entry: QueueEntry | undefined }) {
  const pct = Math.round(queueProgress(s.ahead, entry?.firstAhead) * 100);
  return (
    <View className="queue__body" data-testid="queue-waiting">
      <Pulse
        label="您的排队号"
        value={s.position === null ? '—' : group(s.position)}
        testid="queue-position"
      />
      <View className="queue__stats">
        <View className="queue__stat">
          <Text className="queue__stat-label">前面还有</Text>
          <Text className="queue__stat-value" data-testid="queue-ahead">
            {s.ahead === null ? '—' : `${group(s.ahead)} 人`}
          </Text>
        </View>
        <View className="queue__stat">
          <Text className="queue__stat-label">预计等待</Text>
          <Text className="queue__stat-value" data-testid="queue-eta">
            {etaText(s.etaSeconds)}
          </Text>
        </View>
      </View>
      <View className="queue__track">
        <View className="queue__bar" style={{ width: `${Math.max(4, pct)}%` }} />
      </View>
      <Text className="queue__admitting" data-testid="queue-admitting">
        {s.admittedThrough ? `正在放行第 ${group(s.admittedThrough)} 位` : '即将开始放行'}
      </Text>
    </View>
  );
}

function Presale({ saleStartsAt }: { saleStartsAt: string }) {
  const left = useCountdown(saleStartsAt);
  return (
    <View className="queue__body" data-testid="queue-presale">
      <Pulse
        label="开售倒计时"
        value={left > 0 ? formatCountdown(left) : '即将开售'}
        testid="queue-sale-clock"
      />
      <Text className="queue__headline">已进入候场队列</Text>
      <Text className="queue__text">
        开售后随机排序：开售前进入的观众将在开售时随机分配排队顺序，早到晚到机会均等；开售后进入的观众按到达顺序排在其后。
      </Text>
    </View>
  );
}

function TurnLeft({ until }: { until: string | undefined }) {
  const left = useCountdown(until);
  return left > 0 ? <Text className="queue__text">本轮剩余 {formatCountdown(left)}</Text> : null;
}

function Final(props: {
  testid: string;
  /** An icon in a coloured disc. */
  icon: IconName;
  tone: 'ok' | 'off' | 'warn';
  title: string;
  text: string;
  action?: string;
  onAction?: () => void;
  children?: React.ReactNode;
}) {
  return (
    <View className="queue__body" data-testid={props.testid}>
      <View className={`queue__icon queue__icon--${props.tone}`}>
        <Icon name={props.icon} color="white" size="xl" />
      </View>
      <Text className="queue__headline">{props.title}</Text>
      <Text className="queue__text">{props.text}</Text>
      {props.children}
      {props.action ? (
        <Button
          className="btn btn--primary queue__action"
          data-testid={`${props.testid}-action`}
          onClick={props.onAction}
        >
          {props.action}
        </Button>
      ) : null}
    </View>
  );
}

export interface BoardProps {
  view: QueueView;
  status: QueueStatus | undefined;
  entry: QueueEntry | undefined;
  saleStartsAt: string;
  onRejoin: () => void;
  onBackToShow: () => void;
  onOrders: () => void;
}

function Shuffling() {
  return (
    <View className="queue__body" data-testid="queue-shuffling">
      <Pulse label="开售啦" value="随机排序中" testid="queue-shuffle" />
      <Text className="queue__headline">正在随机排定顺序…</Text>
      <Text className="queue__text">开售前进入的观众正在随机分配排队顺序，请稍候，不要离开。</Text>
    </View>
  );
}

/** The waiting room as the fan sees it, one block per state. */
export default function QueueBoard(p: BoardProps) {
  const s = p.status;
  switch (p.view) {
    case 'presale':
      return <Presale saleStartsAt={p.saleStartsAt} />;
    case 'shuffling':
      return <Shuffling />;
    case 'waiting':
    case 'not_joined':
      return s ? <Waiting s={s} entry={p.entry} /> : null;
    case 'admitted':
      return (
        <Final
          testid="queue-admitted"
          icon="check"
          tone="ok"
          title="轮到您了！"
          text="正在进入选座，请在购票时间内完成下单。"
        />
      );
    default:
      return <TurnOver {...p} />;
  }
}

/** The states where the fan's turn is spent, ended or cannot come: what to do next. */
function TurnOver(p: BoardProps) {
  switch (p.view) {
    case 'used':
      return (
        <Final
          testid="queue-used"
          icon="check"
          tone="ok"
          title="本轮购票资格已使用"
          text="每次排队可提交一次订单。如需再次购买，请在本轮结束后重新排队。"
          action="查看我的订单"
          onAction={p.onOrders}
        >
          <TurnLeft until={p.entry?.admissionExpiresAt} />
        </Final>
      );
    case 'sold_out':
      return (
        <Final
          testid="queue-soldout"
          icon="close"
          tone="off"
          title="已售罄"
          text="本场门票已全部售出，感谢您的耐心等待。后续如有退票回流，将在演出详情页开放。"
          action="返回演出详情"
          onAction={p.onBackToShow}
        />
      );
    case 'done':
      // The turn ended after the fan bought: the purchase went through, nothing ran out.
      return (
        <Final
          testid="queue-done"
          icon="check"
          tone="ok"
          title="本轮已成功下单"
          text="您在本轮排队中提交的订单可在「我的订单」中查看。如需再次购买，可重新排队（将排在队尾）。"
          action="查看我的订单"
          onAction={p.onOrders}
        >
          <Button
            className="btn btn--ghost queue__action"
            data-testid="queue-done-rejoin"
            onClick={p.onRejoin}
          >
            重新排队
          </Button>
        </Final>
      );
    case 'expired':
      return (
        <Final
          testid="queue-expired"
          icon="alert"
          tone="warn"
          title="本轮购票时间已结束"
          text="您的购票时间已用完，排队位置已释放。重新排队将排在队尾。"
          action="重新排队"
          onAction={p.onRejoin}
        />
      );
    default:
      return null;
  }
}
