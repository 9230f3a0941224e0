import taro from './stubs/taro';

/** One answer of the fake API, or 'network' for a request that gets no answer at all. */
export type Reply = { statusCode: number; data?: unknown; header?: Record<string, string> } | 'network';
export type Route = Reply | Reply[] | ((req: { data: unknown }) => Reply);

export interface Sent {
  key: string;
  at: number;
  data: unknown;
  header: Record<string, string>;
}

export const ok = (data: unknown): Reply => ({ statusCode: 200, data });
export const refuse = (status: number, code: string, header: Record<string, string> = {}): Reply => ({
  statusCode: status,
  data: { error: { code, message: code } },
  header,
});

/**
 * Answers Taro.request by "METHOD /path": a fixed reply, a list played in order (the last one
 * repeats) or a function. Every request is recorded with the (fake) time it was sent.
 */
export function serveApi(routes: Record<string, Route>): Sent[] {
  const sent: Sent[] = [];
  const lists = new Map<string, Reply[]>();
  taro.request.mockImplementation(
    async (opts: { url: string; method?: string; data?: unknown; header: Record<string, string> }) => {
      const key = `${opts.method ?? 'GET'} ${opts.url}`;
      sent.push({ key, at: Date.now(), data: opts.data, header: opts.header });
      const route = routes[key];
      let reply: Reply;
      if (route === undefined) reply = refuse(404, 'NOT_FOUND');
      else if (typeof route === 'function') reply = route({ data: opts.data });
      else if (Array.isArray(route)) {
        const list = lists.get(key) ?? [...route];
        lists.set(key, list);
        reply = list.length > 1 ? list.shift()! : list[0]!;
      } else reply = route;
      if (reply === 'network') throw new Error('request:fail');
      return { header: {}, ...reply };
    },
  );
  return sent;
}
