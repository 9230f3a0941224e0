import { Button, ScrollView, View } from '@tarojs/components';
import { useRouter } from '@tarojs/taro';
import { useState } from 'react';
import ErrorPanel from '../../components/ErrorPanel';
import { Empty } from '../../components/Loading';
import TurnTimer from '../../components/TurnTimer';
import { back } from '../../routes';
import { draftTotalFen, draftUnits, loadDraft, type CheckoutDraft } from '../../services/draft';
import ContactPhone from './ContactPhone';
import { AttendeeForm, AttendeeSummary, ConfirmBar, HoldTimer, Lines, PayNotice, ShowCard } from './parts';
import { useConfirm } from './useConfirm';
import './index.scss';

function Confirm({ draft }: { draft: CheckoutDraft }) {
  const c = useConfirm(draft);
  const { form, order } = c;
  const total = order ? order.amountFen : draftTotalFen(draft);
  const labels = draft.seats
    ? draft.seats.map((s) => s.label)
    : Array.from({ length: draftUnits(draft) }, () => draft.zone!.name);
  const { expired } = c.payment;
  return (
    <View className="page page--barred confirm">
      {draft.queueEnabled && !order ? <TurnTimer admission={c.admission} onRequeue={c.requeue} /> : null}
      <ScrollView scrollY className="confirm__scroll">
        {order ? <HoldTimer expireAt={order.expireAt} expired={expired} onExpired={c.reselect} /> : null}
        <ShowCard d={draft} />
        <Lines d={draft} />
        {/* After a reload the attendees typed here are gone (ID numbers are not kept on the phone). */}
        {draft.realName && order && form.attendees.some((a) => a.name) ? (
          <AttendeeSummary list={form.attendees} labels={labels} />
        ) : null}
        {draft.realName && !order ? <AttendeeForm form={form} labels={labels} /> : null}
        <ContactPhone
          value={form.phone}
          error={form.phoneError}
          locked={Boolean(order)}
          onChange={form.onPhone}
        />
        <PayNotice />
      </ScrollView>
      <ConfirmBar total={total} c={c} />
      {c.shown ? <ErrorPanel error={c.shown} onAction={c.onErrorAction} onClose={c.closeError} /> : null}
    </View>
  );
}

export default function ConfirmPage() {
  const { params } = useRouter();
  const [draft] = useState(() => loadDraft(params.sessionId ?? ''));
  if (!draft) {
    return (
      <View className="page">
        <Empty text="选座信息已失效，请重新选座">
          <Button className="btn btn--primary" onClick={() => back('home')}>
            返回
          </Button>
        </Empty>
      </View>
    );
  }
  return <Confirm draft={draft} />;
}
