import type { RowDataPacket } from 'mysql2/promise';
import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import type { Messages } from '../outbox/repo';
import type { WechatClient } from '../wechat/client';

const TEXT: Record<Messages['notice.send']['template'], { title: string; page: string }> = {
  ticketed: { title: '购票成功，电子票已放入票夹', page: 'pages/tickets/index' },
  refunded: { title: '退票成功，款项将原路退回', page: 'pages/orders/index' },
  late_refund: { title: '支付超时，座位已售出，款项将原路退回', page: 'pages/orders/index' },
  refund_delayed: { title: '退款遇到问题，客服将尽快联系您处理', page: 'pages/orders/index' },
  returned: { title: '支付币种与订单不符，款项将原路退回', page: 'pages/orders/index' },
  session_changed: { title: '您购票的场次已取消或延期，请查看详情', page: 'pages/order/index' },
};

/**
 * Sends a buyer's notice as a WeChat subscribe message, once per outbox message (the message
 * id is the key, so a redelivery does not notify twice unless the first send crashed midway).
 */
export async function sendNotice(
  d: { db: Db; wechat: WechatClient; log: Logger; templateId: string },
  m: Messages['notice.send'],
  messageKey: string,
): Promise<void> {
  const [done] = await d.db.query<RowDataPacket[]>('SELECT 1 FROM notices WHERE message_key = ?', [
    messageKey,
  ]);
  if (done.length) return;
  const [rows] = await d.db.query<RowDataPacket[]>(
    `SELECT u.openid, o.order_no, sh.title FROM users u JOIN orders o ON o.id = ? JOIN show_sessions ss ON ss.id = o.session_id
       JOIN shows sh ON sh.id = ss.show_id WHERE u.id = ?`,
    [m.orderId, m.userId],
  );
  const r = rows[0];
  if (!r) return;
  const text = TEXT[m.template];
  await d.wechat.sendSubscribeMessage({
    openid: r.openid,
    templateId: d.templateId,
    page: `${text.page}?orderNo=${r.order_no}`,
    data: {
      thing1: { value: String(r.title).slice(0, 20) },
      character_string2: { value: r.order_no },
      thing3: { value: text.title.slice(0, 20) },
    },
  });
  await d.db.query('INSERT IGNORE INTO notices (message_key, user_id, template) VALUES (?, ?, ?)', [
    messageKey,
    m.userId,
    m.template,
  ]);
}
