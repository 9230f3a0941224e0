import type { CreateOrderInput } from '@showtix/shared-types';
import { useEffect, useRef, useState } from 'react';
import { normaliseAttendees, type AttendeeInput } from '../../services/attendees';
import { rememberPhone } from '../../services/contact-phone';
import { saveDraft, type CheckoutDraft } from '../../services/draft';
import { errorView, type ErrorView } from '../../services/errors';
import { createOrder, getOrder, OrderAttempt } from '../../services/orders';
import { replace } from '../../routes';
import { currentAdmission, markAdmissionUsed } from '../../services/queue';
import type { Order } from '@showtix/shared-types';

/** What the fan fills in on 确认订单 besides the draft's seats or zone. */
export interface BuyerInput {
  attendees: AttendeeInput[];
  /** Normalised (checkPhone): the same number always makes the same body, so the same key. */
  contactPhone: string;
}

export function orderInput(d: CheckoutDraft, buyer: BuyerInput, admissionToken?: string): CreateOrderInput {
  const common = {
    sessionId: d.sessionId,
    ...(d.realName ? { attendees: normaliseAttendees(buyer.attendees) } : {}),
    ...(admissionToken ? { admissionToken } : {}),
    contactPhone: buyer.contactPhone,
  };
  if (d.seats) return { ...common, seatIds: d.seats.map((s) => s.id) };
  return { ...common, zoneId: d.zone!.id, quantity: d.zone!.quantity };
}

/**
 * Submitting the order: one OrderAttempt per page, so re-submitting the same selection (after a
 * timeout, a 429 or a double tap) reuses its Idempotency-Key and can never buy twice. The key
 * follows the whole body (OrderAttempt), so another contact phone is another request.
 */
export function useCheckout(draft: CheckoutDraft | undefined) {
  const attempt = useRef(new OrderAttempt());
  const [order, setOrder] = useState<Order>();
  const [error, setError] = useState<ErrorView>();
  const [busy, setBusy] = useState(false);
  // A draft that already became an order (the page was reloaded): show that order, never submit
  // again. Anything but a pending order (paid, cancelled, unreadable) goes to 订单详情.
  const [resuming, setResuming] = useState(Boolean(draft?.orderNo));
  const orderNo = draft?.orderNo;
  useEffect(() => {
    if (!orderNo) return undefined;
    let live = true;
    getOrder(orderNo)
      .then((o) => {
        if (!live) return;
        if (o.status === 'pending') setOrder(o);
        else replace('order', { orderNo });
      })
      .catch(() => live && replace('order', { orderNo }))
      .finally(() => live && setResuming(false));
    return () => {
      live = false;
    };
  }, [orderNo]);

  /** The order placed (to be paid at once), or undefined: refused, or nothing sent. */
  const submit = async (buyer: BuyerInput): Promise<Order | undefined> => {
    if (!draft || busy || resuming || draft.orderNo) return undefined;
    setBusy(true);
    setError(undefined);
    // Sessions with a waiting room: the turn's token (it buys one order).
    const token = draft.queueEnabled ? currentAdmission(draft.sessionId)?.token : undefined;
    try {
      const o = await createOrder(orderInput(draft, buyer, token), attempt.current);
      attempt.current.reset();
      rememberPhone(buyer.contactPhone);
      saveDraft({ ...draft, orderNo: o.orderNo });
      if (token) markAdmissionUsed(draft.sessionId, token, o.orderNo);
      setOrder(o);
      return o;
    } catch (e) {
      const view = errorView(e);
      if (view.code === 'QUEUE_REQUIRED') markAdmissionUsed(draft.sessionId, token);
      // A definite refusal ends this attempt; transport trouble keeps the key for the retry.
      if (view.code !== 'NETWORK' && view.code !== 'RATE_LIMITED' && view.code !== 'REQUEST_IN_PROGRESS')
        attempt.current.reset();
      setError(view);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { order, setOrder, error, setError, busy: busy || resuming, submit };
}
