import { Button, Text, View } from '@tarojs/components';
import { useRouter } from '@tarojs/taro';
import { useState } from 'react';
import type { CompClaimView } from '@showtix/shared-types';
import BusyButton from '../../components/BusyButton';
import ErrorPanel from '../../components/ErrorPanel';
import { FieldHint, TextField } from '../../components/Field';
import { switchTab } from '../../routes';
import { claimComp } from '../../services/comps';
import { errorView, type ErrorView } from '../../services/errors';
import './index.scss';

const CODE = /^[A-Z2-9]{10}$/;

/**
 * 领取赠票: the person an organiser gave complimentary tickets to enters the claim code (or opens
 * a link carrying `?code=`); the tickets become this WeChat account's, in 票夹 like bought ones.
 */
export default function CompClaimPage() {
  const { params } = useRouter();
  const [code, setCode] = useState(params.code ?? '');
  const [busy, setBusy] = useState(false);
  const [hint, setHint] = useState<string>();
  const [error, setError] = useState<ErrorView>();
  const [done, setDone] = useState<CompClaimView>();

  const claim = async () => {
    const c = code.trim().toUpperCase();
    if (!CODE.test(c)) return setHint('领取码为 10 位字母或数字');
    setHint(undefined);
    setBusy(true);
    try {
      setDone(await claimComp(c));
    } catch (e) {
      setError(errorView(e));
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <View className="page comp-claim" data-testid="comp-done">
        <View className="card">
          <Text className="card__title">已领取 {done.tickets} 张赠票</Text>
          <Text className="card__sub">门票已放入票夹，入场时出示票夹中的二维码</Text>
          <Button
            className="btn btn--primary comp-claim__go"
            data-testid="comp-tickets"
            onClick={() => switchTab('tickets')}
          >
            查看票夹
          </Button>
        </View>
      </View>
    );
  }
  return (
    <View className="page comp-claim">
      <View className="card">
        <Text className="card__title">输入赠票领取码</Text>
        <Text className="card__sub">领取码由主办方发给您，领取后门票绑定到当前微信账号，不能再转给他人</Text>
        <TextField
          className="comp-claim__code"
          testid="comp-code"
          placeholder="10 位字母或数字"
          value={code}
          maxlength={10}
          onInput={(v) => {
            setCode(v);
            setHint(undefined);
          }}
        />
        <FieldHint text={hint} />
        <BusyButton
          className="btn btn--primary comp-claim__go"
          testid="comp-claim"
          busy={busy}
          onClick={() => void claim()}
        >
          领取
        </BusyButton>
      </View>
      {error ? (
        <ErrorPanel error={error} onClose={() => setError(undefined)} onAction={() => setError(undefined)} />
      ) : null}
    </View>
  );
}
