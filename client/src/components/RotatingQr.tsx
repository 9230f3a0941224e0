import type { Ticket } from '@showtix/shared-types';
import { Text, View } from '@tarojs/components';
import { CODE_STEP_MS, currentQr } from '../services/ticket-code';
import CountdownRing from './CountdownRing';
import QrCode from './QrCode';

/** The QR the gate reads now: the ticket's signed part plus the code of the current window. */
export function liveQrText(t: Ticket, nowMs: number): string {
  return t.qrSigned && t.codeKey ? currentQr(t.qrSigned, t.codeKey, nowMs) : t.qr;
}

/**
 * The ticket's rotating QR code (made on the phone, so it also works offline). `now` comes from
 * the page's ticker; the code changes at each window boundary, the ring every second.
 */
export default function RotatingQr({ ticket, now }: { ticket: Ticket; now: number }) {
  const text = liveQrText(ticket, now);
  const live = Boolean(ticket.qrSigned && ticket.codeKey);
  const step = ticket.codeStepMs || CODE_STEP_MS;
  const left = step - (now % step);
  return (
    <View className="live-qr" data-testid="live-qr" data-qr={text}>
      <QrCode text={text} id={ticket.ticketId} />
      {live ? (
        <View className="live-qr__foot">
          <CountdownRing fraction={left / step} seconds={Math.ceil(left / 1000)} />
          <Text className="live-qr__text">动态二维码，每 {Math.round(step / 1000)} 秒刷新</Text>
        </View>
      ) : null}
    </View>
  );
}
