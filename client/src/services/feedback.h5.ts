import Taro from '@tarojs/taro';

/** Browser variant of feedback.ts: vibration where the device has it, tones by Web Audio. */
export type Cue = 'ok' | 'fail';

const TONES: Record<Cue, [number, number][]> = {
  ok: [
    [1320, 0.12],
    [1760, 0.18],
  ],
  fail: [
    [330, 0.18],
    [0, 0.08],
    [330, 0.26],
  ],
};

let ctx: AudioContext | undefined;

export function cue(kind: Cue): void {
  try {
    if (kind === 'ok') void Taro.vibrateShort({ type: 'heavy' }).catch(() => undefined);
    else void Taro.vibrateLong().catch(() => undefined);
  } catch {
    // no vibrator
  }
  try {
    const AC = (window as { AudioContext?: typeof AudioContext }).AudioContext;
    if (!AC) return;
    ctx ??= new AC();
    let t = ctx.currentTime;
    for (const [hz, s] of TONES[kind]) {
      if (hz) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.frequency.value = hz;
        gain.gain.setValueAtTime(0.25, t);
        gain.gain.exponentialRampToValueAtTime(0.001, t + s);
        osc.connect(gain).connect(ctx.destination);
        osc.start(t);
        osc.stop(t + s);
      }
      t += s;
    }
  } catch {
    // autoplay refused or no audio device: the screen and vibration remain
  }
}
