import Taro from '@tarojs/taro';
import { useState } from 'react';
import { back, replace } from '../../routes';
import {
  blankAttendee,
  validateAttendees,
  type AttendeeErrors,
  type AttendeeInput,
} from '../../services/attendees';
import { checkPhone, rememberedPhone } from '../../services/contact-phone';
import { draftUnits, type CheckoutDraft } from '../../services/draft';
import type { ErrorView } from '../../services/errors';
import { currentAdmission } from '../../services/queue';
import { askNoticeConsent, PAY_NOTICE_KINDS } from '../../utils/subscribe';
import { runRemedy } from '../../utils/remedy';
import { coversQueuedId, queuedId } from './QueuedId';
import { useCheckout } from './useCheckout';
import { usePay } from './usePay';

/** What the fan types on 确认订单: attendees, contact phone, and the errors shown next to them. */
function useBuyerForm(draft: CheckoutDraft) {
  const [attendees, setAttendees] = useState<AttendeeInput[]>(() =>
    Array.from({ length: draftUnits(draft) }, blankAttendee),
  );
  const [fieldErrors, setFieldErrors] = useState<AttendeeErrors[]>([]);
  const [phone, setPhone] = useState(rememberedPhone);
  const [phoneError, setPhoneError] = useState<string>();
  const [queued] = useState(() =>
    draft.queueEnabled && draft.realName ? queuedId(draft.sessionId) : undefined,
  );
  const [queuedMissing, setQueuedMissing] = useState(false);
  const onPhone = (value: string) => {
    setPhone(value);
    setPhoneError(undefined);
  };
  /** Every field is checked at once, so the fan sees all that is missing in one go. */
  const check = () => {
    const v = draft.realName ? validateAttendees(attendees) : { ok: true, errors: [] };
    const p = checkPhone(phone);
    const missing = v.ok && !coversQueuedId(attendees, queued);
    setFieldErrors(v.errors);
    setPhoneError(p.ok ? undefined : p.error);
    setQueuedMissing(missing);
    if (!v.ok) return void Taro.showToast({ title: '请完善观演人信息', icon: 'none' });
    if (missing) return void Taro.showToast({ title: '排队证件须为观演人之一', icon: 'none' });
    if (!p.ok) return void Taro.showToast({ title: p.error, icon: 'none' });
    setPhone(p.phone);
    return p.phone;
  };
  const form = { attendees, setAttendees, fieldErrors, setFieldErrors, phone, phoneError, onPhone };
  return { ...form, queued, queuedMissing, check };
}

interface Ways {
  reselect: () => void;
  requeue: () => void;
  again: () => void;
  orderNo?: string;
}

/** The error's way forward on 确认订单 (retry pays an order already placed, else submits again). */
function remedyOf(err: ErrorView, draft: CheckoutDraft, w: Ways) {
  runRemedy(
    err,
    {
      pick_other_seats: w.reselect,
      adjust_selection: w.reselect,
      order_again: w.reselect,
      back_to_show: () => back('show', { id: draft.showId }),
      fix_input: () => undefined,
      retry: w.again,
      retry_later: () => {
        const wait = err.retryAfterMs ?? 3000;
        void Taro.showToast({ title: `${Math.ceil(wait / 1000)} 秒后自动重试`, icon: 'none' });
        setTimeout(w.again, wait);
      },
      refresh_order: () => w.orderNo && replace('order', { orderNo: w.orderNo }),
      rejoin_queue: w.requeue,
    },
    w.again,
  );
}

/** 确认订单's state and actions: the form, placing the order, paying, and the error's remedy. */
export function useConfirm(draft: CheckoutDraft) {
  const form = useBuyerForm(draft);
  const checkout = useCheckout(draft);
  const payment = usePay();
  const [admission] = useState(() => (draft.queueEnabled ? currentAdmission(draft.sessionId) : undefined));
  const order = checkout.order;
  const reselect = () => back('seatmap', { sessionId: draft.sessionId, showId: draft.showId });
  const requeue = () => replace('queue', { sessionId: draft.sessionId, showId: draft.showId });

  // One tap: the order is placed and WeChat Pay opens straight after (no second 支付 tap).
  const submit = async () => {
    const contactPhone = form.check();
    if (contactPhone === undefined) return;
    // Asked within the tap (WeChat shows the consent dialog only in answer to one), while the
    // order is placed; WeChat Pay opens once the fan has answered. A refusal still pays.
    const consent = askNoticeConsent(PAY_NOTICE_KINDS);
    const placed = await checkout.submit({ attendees: form.attendees, contactPhone });
    await consent;
    if (placed) await payment.pay(placed);
  };
  const pay = () => askNoticeConsent(PAY_NOTICE_KINDS).then(() => payment.pay(order));
  const shown = checkout.error ?? payment.error;
  const closeError = () => (checkout.setError(undefined), payment.setError(undefined));
  const onErrorAction = () => {
    const err = shown!;
    closeError();
    remedyOf(err, draft, { reselect, requeue, again: order ? pay : submit, orderNo: order?.orderNo });
  };
  return {
    form,
    checkout,
    payment,
    admission,
    order,
    reselect,
    requeue,
    submit,
    pay,
    shown,
    closeError,
    onErrorAction,
  };
}
