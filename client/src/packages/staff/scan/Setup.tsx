import type { ShowDetail } from '@showtix/shared-types';
import { Button, Text, View } from '@tarojs/components';
import { useState } from 'react';
import Choice from '../../../components/Choice';
import { FieldHint, TextField } from '../../../components/Field';
import { Empty } from '../../../components/Loading';
import LoadState from '../../../components/LoadState';
import { useLoad } from '../../../hooks/useLoad';
import { go } from '../../../routes';
import { getShow } from '../../../services/catalog';
import { staffMe } from '../../../services/staff';
import { formatDateTime } from '../../../utils/time';
import type { DeskSetup } from './useDesk';

/** The shows this staff member checks, with their sessions. */
async function assignedShows(): Promise<ShowDetail[]> {
  const { shows } = await staffMe();
  return Promise.all(shows.map((s) => getShow(s.id)));
}

/** The desk set up from the choices, or the hint for what is missing. */
function deskSetupOf(shows: ShowDetail[], sessionId: string | undefined, gate: string): DeskSetup | string {
  const show = shows.find((s) => s.sessions.some((x) => x.id === sessionId));
  const session = show?.sessions.find((x) => x.id === sessionId);
  if (!show || !session) return '请选择检票场次';
  if (!gate.trim()) return '请填写入口名称，如“东1门”';
  return {
    showId: show.id,
    showTitle: show.title,
    sessionId: session.id,
    startsAt: session.startsAt,
    gate: gate.trim(),
  };
}

function SessionPicker(p: { shows: ShowDetail[]; sessionId?: string; onPick: (id: string) => void }) {
  return (
    <View className="card">
      <Text className="card__title">选择检票场次</Text>
      {p.shows.map((show) => (
        <View key={show.id} className="setup__show">
          <Text className="setup__title">{show.title}</Text>
          {show.sessions.map((s) => (
            <Choice
              key={s.id}
              on={p.sessionId === s.id}
              testid="setup-session"
              title={formatDateTime(s.startsAt)}
              onClick={() => p.onPick(s.id)}
            >
              {show.venue?.name ?? show.venueName}
              {s.realName ? ' · 实名制' : ''}
            </Choice>
          ))}
        </View>
      ))}
    </View>
  );
}

/** Before scanning: which session, at which gate. */
export default function Setup({
  initial,
  onStart,
}: {
  initial?: DeskSetup;
  onStart: (s: DeskSetup) => void;
}) {
  const shows = useLoad(assignedShows, []);
  const [sessionId, setSessionId] = useState(initial?.sessionId);
  const [gate, setGate] = useState(initial?.gate ?? '');
  const [hint, setHint] = useState<string>();

  if (!shows.data) {
    return <LoadState loaded={shows} />;
  }
  if (shows.data.length === 0) {
    return (
      <Empty text="您还没有被分配检票任务">
        <Button className="btn btn--primary" onClick={() => go('staffInvite')}>
          输入邀请码
        </Button>
      </Empty>
    );
  }
  const start = () => {
    const made = deskSetupOf(shows.data!, sessionId, gate);
    if (typeof made === 'string') return setHint(made);
    onStart(made);
  };
  return (
    <View className="setup">
      <SessionPicker
        shows={shows.data}
        sessionId={sessionId}
        onPick={(id) => {
          setSessionId(id);
          setHint(undefined);
        }}
      />
      <View className="card">
        <Text className="card__title">入口名称</Text>
        <TextField
          testid="gate-input"
          placeholder="如：东1门"
          value={gate}
          maxlength={32}
          onInput={(v) => {
            setGate(v);
            setHint(undefined);
          }}
        />
        <FieldHint text={hint} />
        <Button className="btn btn--primary setup__start" data-testid="setup-start" onClick={start}>
          开始检票
        </Button>
      </View>
    </View>
  );
}
