import Taro from '@tarojs/taro';

/**
 * WeChat's consent dialog for subscribe messages (wx.requestSubscribeMessage): the fan's answer
 * per template id ('accept', 'reject', 'ban', 'filter'). subscribe-prompt.h5.ts is the browser's
 * variant. Throws when WeChat shows no dialog (main switch off, not from a tap, unknown ids).
 */
export async function promptSubscribe(tmplIds: string[]): Promise<Record<string, string>> {
  const res = (await Taro.requestSubscribeMessage({
    tmplIds,
  } as Taro.requestSubscribeMessage.Option)) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const id of tmplIds) if (typeof res[id] === 'string') out[id] = res[id] as string;
  return out;
}
