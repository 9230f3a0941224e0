import type { Ticket } from '@showtix/shared-types';
import { Text, View } from '@tarojs/components';
import { useMemo } from 'react';
import type { DeviceKey } from '../services/device-key';
import { CODE_STEP_MS, makeCode, manualDigits, manualKeyOf } from '../services/ticket-code';
import CountdownRing from './CountdownRing';
import QrCode from './QrCode';

/** The QR the gate reads now: the ticket's binding signed for the current step with this phone's key. */
export function liveQrText(t: Ticket, key: DeviceKey, nowMs: number): string {
  return makeCode(t.binding!.binding, key.priv, nowMs);
}

/**
 * The ticket's rotating QR code, made on the phone (so it also works offline), and the six digits
 * the holder reads aloud when the gate cannot scan it. `now` comes from the page's ticker; the
 * code changes at each step boundary, the ring every second.
 */
export default function RotatingQr({
  ticket,
  now,
  deviceKey,
}: {
  ticket: Ticket;
  now: number;
  deviceKey: DeviceKey;
}) {
  const step = ticket.codeStepMs || CODE_STEP_MS;
  const window = Math.floor(now / step);
  const text = useMemo(() => liveQrText(ticket, deviceKey, window * step), [ticket, deviceKey, window, step]);
  const manualKey = useMemo(() => manualKeyOf(deviceKey.priv, ticket.ticketId), [deviceKey, ticket.ticketId]);
  const digits = manualDigits(manualKey, window * step);
  const left = step - (now % step);
  return (
    <View className="live-qr" data-testid="live-qr" data-qr={text}>
      <QrCode text={text} id={ticket.ticketId} />
      <View className="live-qr__foot">
        <CountdownRing fraction={left / step} seconds={Math.ceil(left / 1000)} />
        <Text className="live-qr__text">动态二维码，每 {Math.round(step / 1000)} 秒刷新</Text>
      </View>
      <Text className="live-qr__digits" data-testid="spoken-code">
        人工核验码 {digits.slice(0, 3)} {digits.slice(3)}
      </Text>
    </View>
  );
}
