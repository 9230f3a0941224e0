import type { Order, Refund, Store, TradeState } from './store';

const TRADE_STATE_DESC: Record<TradeState, string> = {
  NOTPAY: '订单未支付',
  SUCCESS: '支付成功',
  CLOSED: '订单已关闭',
  REFUND: '转入退款',
};

/** The transaction object WeChat Pay returns from the query APIs. */
export function transactionView(order: Order): Record<string, unknown> {
  const base: Record<string, unknown> = {
    appid: order.appid,
    mchid: order.mchid,
    out_trade_no: order.out_trade_no,
  };
  if (order.transaction_id) base.transaction_id = order.transaction_id;
  base.trade_type = 'JSAPI';
  base.trade_state = order.trade_state;
  base.trade_state_desc = TRADE_STATE_DESC[order.trade_state];
  if (!order.transaction_id) {
    // Unpaid orders have no payer or payer amounts yet.
    return {
      ...base,
      attach: order.attach ?? '',
      amount: { total: order.amount.total, currency: order.amount.currency },
    };
  }
  return {
    ...base,
    bank_type: order.bank_type,
    attach: order.attach ?? '',
    success_time: order.success_time,
    payer: { openid: order.payer.openid },
    amount: {
      total: order.amount.total,
      payer_total: order.amount.total,
      currency: order.amount.currency,
      payer_currency: order.amount.currency,
    },
  };
}

/** The plaintext of a TRANSACTION.SUCCESS notification (the same shape as a paid query). */
export function transactionNotifyResource(order: Order, wrongAmount = 0): Record<string, unknown> {
  const view = transactionView(order);
  if (wrongAmount) {
    const amount = view.amount as Record<string, number>;
    view.amount = {
      ...amount,
      total: amount.total + wrongAmount,
      payer_total: amount.payer_total + wrongAmount,
    };
  }
  return view;
}

/** The refund object returned by the create / query refund APIs. */
export function refundView(refund: Refund): Record<string, unknown> {
  const view: Record<string, unknown> = {
    refund_id: refund.refund_id,
    out_refund_no: refund.out_refund_no,
    transaction_id: refund.transaction_id,
    out_trade_no: refund.out_trade_no,
    channel: 'ORIGINAL',
    user_received_account: '支付用户零钱',
  };
  if (refund.success_time) view.success_time = refund.success_time;
  return {
    ...view,
    create_time: refund.create_time,
    status: refund.status,
    funds_account: 'AVAILABLE',
    amount: {
      total: refund.total,
      refund: refund.refund,
      from: [],
      payer_total: refund.total,
      payer_refund: refund.refund,
      settlement_refund: refund.refund,
      settlement_total: refund.total,
      discount_refund: 0,
      currency: refund.currency,
      refund_fee: 0,
    },
    promotion_detail: [],
  };
}

/** The plaintext of a REFUND.* notification: a different, smaller shape than refundView. */
export function refundNotifyResource(
  refund: Refund,
  mchid: string,
  wrongAmount = 0,
): Record<string, unknown> {
  const resource: Record<string, unknown> = {
    mchid,
    out_trade_no: refund.out_trade_no,
    transaction_id: refund.transaction_id,
    out_refund_no: refund.out_refund_no,
    refund_id: refund.refund_id,
    refund_status: refund.status,
  };
  if (refund.success_time) resource.success_time = refund.success_time;
  return {
    ...resource,
    user_received_account: '支付用户零钱',
    amount: {
      total: refund.total + wrongAmount,
      refund: refund.refund + wrongAmount,
      payer_total: refund.total + wrongAmount,
      payer_refund: refund.refund + wrongAmount,
    },
  };
}

/** Everything, for GET /sim/state and the inspection helpers. */
export function stateDump(store: Store) {
  return {
    faults: store.faults,
    orders: [...store.orders.values()].map((o) => ({
      ...transactionView(o),
      prepay_id: o.prepay_id,
      description: o.description,
      notify_url: o.notify_url,
      time_expire: o.time_expire,
    })),
    refunds: [...store.refunds.values()].map(refundView),
    notifications: store.notifications,
    messages: store.messages,
    consents: Object.fromEntries([...store.consents].map(([openid, m]) => [openid, Object.fromEntries(m)])),
  };
}
