import { Image } from '@tarojs/components';
import { useMemo } from 'react';
import { qrDataUri } from '../utils/qr';

/** H5 (and tests): the code as an SVG data URI image. QrCode.weapp.tsx draws it on a canvas. */
export default function QrCode({ text, id }: { text: string; id: string }) {
  const src = useMemo(() => qrDataUri(text), [text]);
  return <Image className="qr" id={`qr-${id}`} data-testid="ticket-qr" src={src} mode="aspectFit" />;
}
