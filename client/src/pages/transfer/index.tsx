import type { TransferAcceptInput, TransferPreview } from '@showtix/shared-types';
import { ScrollView, Text, View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { useState } from 'react';
import { AttendeeFields } from '../../components/AttendeeForm';
import BusyButton from '../../components/BusyButton';
import ErrorPanel from '../../components/ErrorPanel';
import { FirstLoad } from '../../components/LoadState';
import { useLoad } from '../../hooks/useLoad';
import { switchTab } from '../../routes';
import {
  blankAttendee,
  normaliseAttendees,
  validateAttendees,
  type AttendeeErrors,
  type AttendeeInput,
} from '../../services/attendees';
import { errorView, type ErrorView } from '../../services/errors';
import { listSaved, type Saved } from '../../services/saved-attendees';
import { seatLabel } from '../../services/shared';
import { acceptTransfer, previewTransfer } from '../../services/transfers';
import { formatYuan } from '../../utils/money';
import { formatDateTime } from '../../utils/time';
import './index.scss';

const STATE_TEXT: Record<TransferPreview['state'], string> = {
  open: '',
  accepted: '此门票已被接收',
  cancelled: '赠送人已取消转赠',
  expired: '转赠已过期',
};

/** Real-name: pick one of the fan's 常用观演人, or type one in (the ticket is re-bound to them). */
function WhoAttends(props: {
  saved: Saved[];
  picked: string | undefined;
  onPick: (id: string | undefined) => void;
  form: AttendeeInput;
  errors: AttendeeErrors;
  onChange: (p: Partial<AttendeeInput>) => void;
}) {
  return (
    <View className="card" data-testid="transfer-attendee">
      <Text className="card__title">选择观演人</Text>
      <Text className="card__sub">实名制演出：门票将绑定到该观演人，入场核验其证件（一证一票）</Text>
      {props.saved.map((a) => (
        <View
          key={a.id}
          className={`transfer__pick${props.picked === a.id ? ' transfer__pick--on' : ''}`}
          data-testid="transfer-saved"
          onClick={() => props.onPick(props.picked === a.id ? undefined : a.id)}
        >
          <Text>{a.nameMasked}</Text>
          <Text>{a.idMasked}</Text>
        </View>
      ))}
      {props.picked ? null : (
        <AttendeeFields
          value={props.form}
          errors={props.errors}
          onChange={props.onChange}
          testids={{ name: 'transfer-name', idNumber: 'transfer-id' }}
        />
      )}
    </View>
  );
}

/**
 * Accepting: on a real-name session the ticket goes to the picked 常用观演人, or to the one typed
 * in (checked by the form first); then the wallet.
 */
function useAccept(code: string, p: TransferPreview | undefined) {
  const [picked, setPicked] = useState<string>();
  const [form, setForm] = useState<AttendeeInput>(blankAttendee);
  const [errors, setErrors] = useState<AttendeeErrors>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorView>();
  const bodyOf = (): TransferAcceptInput | undefined => {
    if (!p?.realName) return {};
    if (picked) return { savedAttendeeId: picked };
    const v = validateAttendees([form]);
    setErrors(v.errors[0] ?? {});
    return v.ok ? { attendee: normaliseAttendees([form])[0] } : undefined;
  };
  const accept = async () => {
    const body = p && !busy ? bodyOf() : undefined;
    if (!body) return;
    setBusy(true);
    try {
      await acceptTransfer(code, body);
      void Taro.showToast({ title: '已收下，门票在票夹中', icon: 'success' });
      switchTab('tickets');
    } catch (e) {
      setError(errorView(e));
    } finally {
      setBusy(false);
    }
  };
  const edit = (patch: Partial<AttendeeInput>) => (setForm((f) => ({ ...f, ...patch })), setErrors({}));
  return { picked, setPicked, form, edit, errors, busy, error, setError, accept };
}

/** 接收转赠: what a friend sent (the link of their share card), accepted into this fan's wallet. */
export default function TransferPage() {
  const code = useRouter().params.code ?? '';
  const preview = useLoad(() => previewTransfer(code), [code]);
  const p = preview.data;
  const saved = useLoad(() => (p?.realName ? listSaved() : Promise.resolve([])), [p?.realName]);
  const { picked, setPicked, form, edit, errors, busy, error, setError, accept } = useAccept(code, p);
  const open = p?.state === 'open' && !p.mine;
  return (
    <View className="page transfer">
      <ScrollView scrollY>
        <FirstLoad loaded={preview} />
        {p ? (
          <View className="card" data-testid="transfer-preview">
            <Text className="card__title">{p.showTitle}</Text>
            <Text className="card__sub">
              {formatDateTime(p.startsAt)} · {p.venueName}
            </Text>
            <Text className="transfer__seat">{p.seat ? seatLabel(p.seat) : (p.zoneName ?? '')}</Text>
            <Text className="transfer__note">
              票面价 {formatYuan(p.priceFen)}（好友赠送，无需付款；转赠后不支持退票）
            </Text>
            <Text className="transfer__note">请在 {formatDateTime(p.expiresAt)} 前接收</Text>
            {p.state !== 'open' ? (
              <Text className="transfer__note" data-testid="transfer-state">
                {STATE_TEXT[p.state]}
              </Text>
            ) : null}
            {p.mine && p.state === 'open' ? (
              <Text className="transfer__note" data-testid="transfer-mine">
                这是您发出的转赠，请分享给好友接收
              </Text>
            ) : null}
          </View>
        ) : null}
        {open && p.realName ? (
          <WhoAttends
            saved={saved.data ?? []}
            picked={picked}
            onPick={setPicked}
            form={form}
            errors={errors}
            onChange={edit}
          />
        ) : null}
        {open ? (
          <BusyButton
            className="btn btn--primary transfer__accept"
            testid="transfer-accept"
            busy={busy}
            onClick={() => void accept()}
          >
            收下门票
          </BusyButton>
        ) : null}
      </ScrollView>
      {error ? (
        <ErrorPanel error={error} onClose={() => setError(undefined)} onAction={() => setError(undefined)} />
      ) : null}
    </View>
  );
}
