import { Button, Text, View } from '@tarojs/components';
import { useState } from 'react';
import BusyButton from '../../../components/BusyButton';
import ErrorPanel from '../../../components/ErrorPanel';
import { FieldHint, TextField } from '../../../components/Field';
import { replace } from '../../../routes';
import { errorView, type ErrorView } from '../../../services/errors';
import { redeemInvite, type StaffShows } from '../../../services/staff';
import './index.scss';

const CODE = /^[A-Z0-9]{8,16}$/;

/** Gate staff join a show with the invite code its organiser gave them. */
export default function InvitePage() {
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [hint, setHint] = useState<string>();
  const [error, setError] = useState<ErrorView>();
  const [done, setDone] = useState<StaffShows>();

  const redeem = async () => {
    const c = code.trim().toUpperCase();
    if (!CODE.test(c)) return setHint('邀请码为 8–16 位字母或数字');
    setHint(undefined);
    setBusy(true);
    try {
      setDone(await redeemInvite(c));
    } catch (e) {
      setError(errorView(e));
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <View className="page invite" data-testid="invite-done">
        <View className="card">
          <Text className="card__title">已成为检票工作人员</Text>
          <Text className="card__sub">可检票的演出：</Text>
          {done.shows.map((s) => (
            <Text key={s.id} className="card__line">
              · {s.title}
            </Text>
          ))}
          <Button
            className="btn btn--primary invite__go"
            data-testid="invite-scan"
            onClick={() => replace('staffScan')}
          >
            开始检票
          </Button>
        </View>
      </View>
    );
  }
  return (
    <View className="page invite">
      <View className="card">
        <Text className="card__title">输入检票邀请码</Text>
        <Text className="card__sub">邀请码由主办方在管理后台生成，兑换后即可在指定演出检票</Text>
        <TextField
          className="invite__code"
          testid="invite-code"
          placeholder="8–16 位字母或数字"
          value={code}
          maxlength={16}
          onInput={(v) => {
            setCode(v);
            setHint(undefined);
          }}
        />
        <FieldHint text={hint} />
        <BusyButton
          className="btn btn--primary invite__go"
          testid="invite-redeem"
          busy={busy}
          onClick={() => void redeem()}
        >
          兑换
        </BusyButton>
      </View>
      {error ? (
        <ErrorPanel error={error} onClose={() => setError(undefined)} onAction={() => setError(undefined)} />
      ) : null}
    </View>
  );
}
