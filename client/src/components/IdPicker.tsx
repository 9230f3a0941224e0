import { Text, View } from '@tarojs/components';
import { useState } from 'react';
import { useLoad } from '../hooks/useLoad';
import { go } from '../routes';
import { ID_TYPE_LABELS, validateAttendees, type IdType } from '../services/attendees';
import type { QueueJoin } from '../services/queue';
import { listSaved } from '../services/saved-attendees';
import { IdFields } from './AttendeeForm';
import BusyButton from './BusyButton';
import Choice from './Choice';
import { FieldHint } from './Field';

/** The ID error of one number, as the order form would say it. */
export function idNumberError(idType: IdType, idNumber: string): string | undefined {
  return validateAttendees([{ name: '证件', idType, idNumber }]).errors[0]?.idNumber;
}

/**
 * Real-name waiting rooms hold one place per ID: the fan picks one of their frequent attendees
 * (shown masked) or types an ID.
 */
export default function IdPicker(props: { busy: boolean; onPick: (join: Required<QueueJoin>) => void }) {
  const saved = useLoad(listSaved, []);
  const [picked, setPicked] = useState<string>();
  const [manual, setManual] = useState(false);
  const [idType, setIdType] = useState<IdType>('id_card');
  const [idNumber, setIdNumber] = useState('');
  const [error, setError] = useState<string>();
  const list = saved.data ?? [];
  const typing = manual || (saved.data !== undefined && list.length === 0);

  const submit = () => {
    if (!typing) {
      const s = list.find((a) => a.id === picked);
      if (!s) return setError('请选择一位观演人');
      return props.onPick({ idType: s.idType, idNumber: s.idNumber });
    }
    const err = idNumberError(idType, idNumber);
    setError(err);
    if (!err) props.onPick({ idType, idNumber: idNumber.trim().toUpperCase() });
  };

  return (
    <View className="card" data-testid="id-picker">
      <Text className="card__title">选择排队证件</Text>
      <Text className="card__sub">
        本场实名制：一个证件只能排一个位置；购票时该证件持有人须为观演人之一，可同时为同行亲友购票
      </Text>
      {!typing
        ? list.map((a) => (
            <Choice
              key={a.id}
              on={picked === a.id}
              testid="saved-attendee"
              title={a.nameMasked}
              onClick={() => {
                setPicked(a.id);
                setError(undefined);
              }}
            >
              {ID_TYPE_LABELS[a.idType]} {a.idMasked}
            </Choice>
          ))
        : null}
      {typing ? (
        <View className="attendee">
          <IdFields
            idType={idType}
            idNumber={idNumber}
            testid="queue-id-number"
            onChange={(patch) => {
              if (patch.idType) setIdType(patch.idType);
              if (patch.idNumber !== undefined) {
                setIdNumber(patch.idNumber);
                setError(undefined);
              }
            }}
          />
        </View>
      ) : null}
      <FieldHint text={error} />
      <View className="id-picker__links">
        {list.length > 0 ? (
          <Text className="link" data-testid="id-manual" onClick={() => setManual(!manual)}>
            {manual ? '从常用观演人选择' : '手动填写证件'}
          </Text>
        ) : null}
        <Text className="link" onClick={() => go('attendees')}>
          管理常用观演人
        </Text>
      </View>
      <BusyButton
        className="btn btn--primary id-picker__go"
        testid="queue-join"
        busy={props.busy}
        onClick={submit}
      >
        进入排队
      </BusyButton>
    </View>
  );
}
