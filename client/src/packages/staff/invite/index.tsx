import { Text, View } from '@tarojs/components';
import { useState } from 'react';
import CodeEntry from '../../../components/CodeEntry';
import DoneCard from '../../../components/DoneCard';
import { replace } from '../../../routes';
import { redeemInvite, type StaffShows } from '../../../services/staff';
import './index.scss';

const CODE = /^[A-Z0-9]{8,16}$/;

/** Gate staff join a show with the invite code its organiser gave them. */
export default function InvitePage() {
  const [done, setDone] = useState<StaffShows>();

  if (done) {
    return (
      <DoneCard
        block="invite"
        testid="invite-done"
        title="已成为检票工作人员"
        sub="可检票的演出："
        action={{ text: '开始检票', testid: 'invite-scan', onTap: () => replace('staffScan') }}
      >
        {done.shows.map((s) => (
          <Text key={s.id} className="card__line">
            · {s.title}
          </Text>
        ))}
      </DoneCard>
    );
  }
  return (
    <View className="page invite">
      <CodeEntry
        block="invite"
        title="输入检票邀请码"
        sub="邀请码由主办方在管理后台生成，兑换后即可在指定演出检票"
        placeholder="8–16 位字母或数字"
        maxlength={16}
        pattern={CODE}
        patternHint="邀请码为 8–16 位字母或数字"
        testids={{ code: 'invite-code', submit: 'invite-redeem' }}
        submitLabel="兑换"
        onSubmit={async (c) => setDone(await redeemInvite(c))}
      />
    </View>
  );
}
