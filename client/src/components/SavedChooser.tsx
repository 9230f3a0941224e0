import { Text, View } from '@tarojs/components';
import { useState } from 'react';
import { errorView } from '../services/errors';
import { blankAttendee, ID_TYPE_LABELS, type AttendeeInput } from '../services/attendees';
import { listSaved, samePerson, toInput, type Saved } from '../services/saved-attendees';
import { go } from '../routes';
import { FieldHint } from './Field';

/**
 * 常用观演人 on 确认订单: opened on demand (it needs the fan's login), each tap fills the next
 * empty attendee with a saved one, or takes them out again.
 */
export default function SavedChooser({
  attendees,
  onChange,
}: {
  attendees: AttendeeInput[];
  onChange: (list: AttendeeInput[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const [saved, setSaved] = useState<Saved[]>();
  const [error, setError] = useState<string>();

  const load = () => {
    setOpen(true);
    setError(undefined);
    listSaved().then(setSaved, (e) => setError(errorView(e).message));
  };
  const toggle = (s: Saved) => {
    const at = attendees.findIndex((a) => samePerson(a, s));
    if (at >= 0) return onChange(attendees.map((a, i) => (i === at ? blankAttendee() : a)));
    const empty = attendees.findIndex((a) => !a.name.trim() && !a.idNumber.trim());
    if (empty < 0) return setError('观演人已填满，请先移除一位');
    setError(undefined);
    onChange(attendees.map((a, i) => (i === empty ? toInput(s) : a)));
  };

  if (!open) {
    return (
      <Text className="link saved-chooser__open" data-testid="saved-open" onClick={load}>
        ＋ 从常用观演人中选择
      </Text>
    );
  }
  return (
    <View className="saved-chooser" data-testid="saved-chooser">
      {saved?.length === 0 ? <Text className="card__sub">还没有常用观演人</Text> : null}
      <View className="saved-chooser__chips">
        {(saved ?? []).map((s) => {
          const on = attendees.some((a) => samePerson(a, s));
          return (
            <View
              key={s.id}
              className={`chip ${on ? 'chip--on' : ''}`}
              data-testid="saved-chip"
              onClick={() => toggle(s)}
            >
              <Text className="chip__name">{s.nameMasked}</Text>
              <Text className="chip__id">
                {ID_TYPE_LABELS[s.idType]} {s.idMasked.slice(-4)}
              </Text>
            </View>
          );
        })}
      </View>
      <FieldHint text={error} />
      <Text className="link" onClick={() => go('attendees')}>
        管理常用观演人
      </Text>
    </View>
  );
}
