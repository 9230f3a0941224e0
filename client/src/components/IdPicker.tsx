import { Button, Input, Picker, Text, View } from '@tarojs/components';
import { useState } from 'react';
import { useLoad } from '../hooks/useLoad';
import { go } from '../routes';
import { ID_TYPE_LABELS, ID_TYPE_OPTIONS, validateAttendees, type IdType } from '../services/attendees';
import type { QueueJoin } from '../services/queue';
import { listSaved } from '../services/saved-attendees';
import { flag } from '../utils/flag';

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
      <Text className="card__sub">本场实名制：一个证件只能排一个位置，购票时需为该证件持有人购票</Text>
      {!typing
        ? list.map((a) => (
            <View
              key={a.id}
              className={`choice ${picked === a.id ? 'choice--on' : ''}`}
              data-testid="saved-attendee"
              onClick={() => {
                setPicked(a.id);
                setError(undefined);
              }}
            >
              <View className="choice__main">
                <Text className="choice__title">{a.nameMasked}</Text>
                <Text className="choice__sub">
                  {ID_TYPE_LABELS[a.idType]} {a.idMasked}
                </Text>
              </View>
              <View className="choice__mark" />
            </View>
          ))
        : null}
      {typing ? (
        <View className="attendee">
          <View className="field">
            <Text className="field__label">证件类型</Text>
            <Picker
              mode="selector"
              range={ID_TYPE_OPTIONS.map((o) => o.label)}
              value={ID_TYPE_OPTIONS.findIndex((o) => o.value === idType)}
              onChange={(e) => setIdType(ID_TYPE_OPTIONS[Number(e.detail.value)]!.value)}
            >
              <Text className="field__picker">{ID_TYPE_LABELS[idType]} ▾</Text>
            </Picker>
          </View>
          <View className="field">
            <Text className="field__label">证件号码</Text>
            <Input
              className="field__input"
              data-testid="queue-id-number"
              placeholder="请输入证件号码"
              value={idNumber}
              maxlength={32}
              type={idType === 'id_card' ? 'idcard' : 'text'}
              onInput={(e) => {
                setIdNumber(e.detail.value);
                setError(undefined);
              }}
            />
          </View>
        </View>
      ) : null}
      {error ? <Text className="field__error field__error--block">{error}</Text> : null}
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
      <Button
        className="btn btn--primary id-picker__go"
        data-testid="queue-join"
        loading={flag(props.busy)}
        disabled={flag(props.busy)}
        onClick={submit}
      >
        进入排队
      </Button>
    </View>
  );
}
