import { Text, View } from '@tarojs/components';
import { useRouter } from '@tarojs/taro';
import { useEffect } from 'react';
import { RemedySheet } from '../../components/ErrorPanel';
import IdPicker from '../../components/IdPicker';
import Loading from '../../components/Loading';
import LoadState from '../../components/LoadState';
import { useLoad } from '../../hooks/useLoad';
import { back, switchTab } from '../../routes';
import { sessionContext } from '../../services/context';
import { isUnreachable } from '../../services/errors';
import { retryDelayMs } from '../../services/queue';
import { openSeatMap } from '../../seatmap/preload';
import { formatDateTime } from '../../utils/time';
import QueueBoard from './QueueBoard';
import { useQueue } from './useQueue';
import './index.scss';

const CONTEXT_RETRY_MS = 2_000;

/**
 * The waiting room of a queue-enabled session: joins (with an ID on real-name sessions), shows
 * the place, the people ahead, who is being let in and the wait, and moves on to seat selection
 * by itself when the fan is admitted. Its place survives app restarts (see useQueue).
 */
export default function QueuePage() {
  const { params } = useRouter();
  const sessionId = params.sessionId ?? '';
  const ctx = useLoad(() => sessionContext(sessionId), [sessionId]);
  const session = ctx.data?.session;
  const showId = params.showId || session?.showId || '';
  // The map's data is asked for as the fan is let in: an admitted fan's turn runs from then.
  const toSeats = () => openSeatMap({ sessionId, showId }, 'replace');
  const q = useQueue(sessionId, {
    ready: Boolean(session?.queueEnabled),
    realName: Boolean(session?.realName),
    showId,
    onAdmitted: toSeats,
  });
  // The waiting room is where fans sit when the servers are busiest: a first load that met an
  // overloaded or unreachable server is tried again by itself, not left on an error to tap.
  const ctxError = ctx.error;
  useEffect(() => {
    if (!ctxError || !isUnreachable(ctxError.code)) return undefined;
    const t = setTimeout(ctx.reload, Math.max(ctxError.retryAfterMs ?? 0, CONTEXT_RETRY_MS));
    return () => clearTimeout(t);
  }, [ctxError, ctx.reload]);
  // A session without a waiting room (or one switched off) goes straight to its seats.
  useEffect(() => {
    if (session && !session.queueEnabled) toSeats();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session]);

  if (!session) {
    return (
      <View className="page">
        <LoadState loaded={ctx} />
      </View>
    );
  }
  const show = ctx.data!.show;
  const err = q.error;
  // Trouble the page retries by itself is a quiet line; a refusal is a sheet with a way forward.
  const retrying = err && retryDelayMs(err, 0, 1) !== undefined;
  const toShow = () => back('show', { id: showId });

  return (
    <View className="page queue" data-testid="queue-page" data-view={q.view}>
      <View className="queue__head">
        <Text className="queue__title">{show.title}</Text>
        <Text className="queue__sub">
          {formatDateTime(session.startsAt)} · {show.venue?.name ?? show.venueName}
        </Text>
      </View>
      {q.view === 'loading' ? <Loading text="正在进入排队…" /> : null}
      {q.view === 'need_id' ? <IdPicker busy={q.busy} onPick={q.join} /> : null}
      <QueueBoard
        view={q.view}
        status={q.status}
        entry={q.entry}
        saleStartsAt={session.saleStartsAt}
        onRejoin={q.rejoin}
        onBackToShow={toShow}
        onOrders={() => switchTab('orders')}
      />
      {retrying ? (
        <Text className="queue__notice" data-testid="queue-retrying">
          {err.code === 'RATE_LIMITED' ? '当前排队人数较多，稍后自动刷新' : '网络不给力，正在自动重试…'}
        </Text>
      ) : null}
      <View className="queue__foot">
        <Text className="queue__tip">
          离开本页或关闭小程序不会失去排队位置，回来即可继续；轮到您后将自动进入选座。
        </Text>
      </View>
      <RemedySheet
        error={retrying ? undefined : err}
        dismiss={q.dismissError}
        handlers={{ fix_input: () => undefined, back_to_show: toShow }}
        reload={q.rejoin}
      />
    </View>
  );
}
