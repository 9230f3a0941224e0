import Taro from '@tarojs/taro';
import { useMemo, useRef } from 'react';
import { replace } from '../../routes';
import { exchangeTickets } from '../../services/exchanges';
import { errorView } from '../../services/errors';
import { randomId } from '../../utils/random';

export interface ExchangeMode {
  /** The original order and the tickets it moves (ticket numbers). */
  orderNo: string;
  tickets: string[];
  /** Sends the exchange with the new seats or zone, then opens the exchange order. */
  confirm(units: { seatIds: string[] } | { zoneId: string }, sessionId: string): Promise<void>;
}

/**
 * The seat map opened for 改签 (`exchange` = original order number, `tickets` = ticket numbers):
 * confirming sends the exchange instead of going to checkout, and opens the exchange order (the
 * difference to pay there, or its new tickets already issued).
 */
export function useExchangeMode(params: Record<string, string | undefined>): ExchangeMode | undefined {
  const orderNo = params.exchange ?? '';
  const tickets = params.tickets ?? '';
  // One key per chosen set of seats: a second tap on the same seats is the same exchange.
  const key = useRef<{ body: string; key: string }>();
  return useMemo(() => {
    if (!orderNo || !tickets) return undefined;
    const ticketIds = tickets.split(',').filter(Boolean);
    return {
      orderNo,
      tickets: ticketIds,
      async confirm(units, sessionId) {
        const body = { ticketIds, sessionId, ...units };
        const text = JSON.stringify(body);
        if (key.current?.body !== text) key.current = { body: text, key: randomId('exchange') };
        try {
          const x = await exchangeTickets(orderNo, body, key.current.key);
          if (x.status === 'done') void Taro.showToast({ title: '改签成功，新票已出票', icon: 'none' });
          replace('order', { orderNo: x.orderNo });
        } catch (e) {
          key.current = undefined;
          void Taro.showToast({ title: errorView(e).message, icon: 'none' });
        }
      },
    };
  }, [orderNo, tickets]);
}
