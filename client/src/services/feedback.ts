import Taro from '@tarojs/taro';

/**
 * The gate's cue for a result: a short vibration and a tone (high and bright for admitted, low
 * and doubled for refused), so staff need not read the screen in a noisy crowd. WeChat plays
 * audio from files only: the two tones are written once as WAV files into the user data folder.
 * feedback.h5.ts is the browser's variant (Web Audio).
 */
export type Cue = 'ok' | 'fail';

const RATE = 8000;

/** 8-bit mono PCM WAV of tones [frequency Hz, milliseconds] (0 Hz = silence). */
export function toneWav(tones: [number, number][]): ArrayBuffer {
  const samples = tones.reduce((n, [, ms]) => n + Math.round((RATE * ms) / 1000), 0);
  const buf = new ArrayBuffer(44 + samples);
  const v = new DataView(buf);
  const str = (at: number, s: string) => [...s].forEach((c, i) => v.setUint8(at + i, c.charCodeAt(0)));
  str(0, 'RIFF');
  v.setUint32(4, 36 + samples, true);
  str(8, 'WAVEfmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true); // PCM
  v.setUint16(22, 1, true); // mono
  v.setUint32(24, RATE, true);
  v.setUint32(28, RATE, true);
  v.setUint16(32, 1, true);
  v.setUint16(34, 8, true);
  str(36, 'data');
  v.setUint32(40, samples, true);
  let at = 44;
  for (const [hz, ms] of tones) {
    const n = Math.round((RATE * ms) / 1000);
    for (let i = 0; i < n; i++) {
      const fade = Math.min(1, i / 80, (n - i) / 80);
      const s = hz ? Math.sin((2 * Math.PI * hz * i) / RATE) * 0.8 * fade : 0;
      v.setUint8(at++, Math.round(128 + s * 127));
    }
  }
  return buf;
}

const TONES: Record<Cue, [number, number][]> = {
  ok: [
    [1320, 120],
    [1760, 180],
  ],
  fail: [
    [330, 180],
    [0, 80],
    [330, 260],
  ],
};

const files: Partial<Record<Cue, string>> = {};

function toneFile(cue: Cue): string | undefined {
  if (files[cue]) return files[cue];
  try {
    const dir = (Taro.env as { USER_DATA_PATH?: string }).USER_DATA_PATH;
    if (!dir) return undefined;
    const path = `${dir}/showtix-gate-${cue}.wav`;
    Taro.getFileSystemManager().writeFileSync(path, toneWav(TONES[cue]));
    files[cue] = path;
    return path;
  } catch {
    return undefined;
  }
}

export function cue(kind: Cue): void {
  try {
    if (kind === 'ok') void Taro.vibrateShort({ type: 'heavy' }).catch(() => undefined);
    else void Taro.vibrateLong().catch(() => undefined);
  } catch {
    // no vibrator
  }
  const src = toneFile(kind);
  if (!src) return;
  try {
    const audio = Taro.createInnerAudioContext({ useWebAudioImplement: true });
    audio.obeyMuteSwitch = false;
    audio.src = src;
    audio.onEnded(() => audio.destroy());
    audio.onError(() => audio.destroy());
    audio.play();
  } catch {
    // no audio: the vibration and the screen remain
  }
}
