import { Canvas } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useEffect } from 'react';
import { qrMatrix } from '../utils/qr';
import { windowInfo } from '../utils/window-info';

/** WeChat: drawn on a Canvas 2D node (image components there do not take SVG data URIs). */
export default function QrCode({ text, id }: { text: string; id: string }) {
  const canvasId = `qr-${id}`;
  useEffect(() => {
    Taro.nextTick(() => {
      Taro.createSelectorQuery()
        .select(`#${canvasId}`)
        .fields({ node: true, size: true })
        .exec((res: Array<{ node?: any; width: number; height: number } | null>) => {
          const hit = res?.[0];
          if (!hit?.node) return;
          const dpr = windowInfo().pixelRatio;
          const canvas = hit.node;
          canvas.width = hit.width * dpr;
          canvas.height = hit.height * dpr;
          const ctx = canvas.getContext('2d');
          const m = qrMatrix(text);
          const cell = (hit.width * dpr) / (m.size + 8);
          ctx.fillStyle = '#ffffff';
          ctx.fillRect(0, 0, canvas.width, canvas.height);
          ctx.fillStyle = '#111111';
          for (let y = 0; y < m.size; y++) {
            for (let x = 0; x < m.size; x++)
              if (m.dark(x, y))
                ctx.fillRect((x + 4) * cell, (y + 4) * cell, Math.ceil(cell), Math.ceil(cell));
          }
        });
    });
  }, [canvasId, text]);
  return <Canvas type="2d" id={canvasId} className="qr" />;
}
