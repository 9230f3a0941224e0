import { useState } from 'react';
import { App, Form } from 'antd';
import type { AdminOrderDetail } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { refundOrder } from '../../api/orders';
import { refundableTickets, refundDoneText, refundMode, type RefundFields } from './refundModel';

/** The refund dialog's state for one order: what may be refunded, the form, and the submit. */
export function useOrderRefund(
  orderNo: string | undefined,
  o: AdminOrderDetail | undefined,
  reload: () => Promise<void>,
  onChanged: () => void,
) {
  const { message } = App.useApp();
  const [refunding, setRefunding] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<RefundFields>();
  const refundable = refundableTickets(o);
  const chosen: string[] | undefined = Form.useWatch('ticketIds', form);
  const chosenFen = refundable
    .filter((t) => chosen?.includes(t.ticketNo))
    .reduce((sum, t) => sum + t.priceFen, 0);
  const refund = async ({ reason, ticketIds }: RefundFields) => {
    setBusy(true);
    try {
      // A ticketed order names the tickets chosen; a paid one (no tickets yet) is refunded whole.
      await refundOrder(orderNo!, reason, ticketIds);
      message.success(refundDoneText(ticketIds));
      setRefunding(false);
      await reload();
      onChanged();
    } catch (e) {
      message.error(errorText(e, '退款失败'));
    } finally {
      setBusy(false);
    }
  };
  // Every valid ticket chosen at first (the Form's initial values; reset on each opening).
  const open = () => (form.resetFields(), setRefunding(true));
  const close = () => setRefunding(false);
  return {
    form,
    refunding,
    busy,
    refundable,
    chosenFen,
    refund,
    open,
    close,
    ...refundMode(o, refundable.length),
  };
}
