import http from 'node:http';
import https from 'node:https';

export interface PostResult {
  /** HTTP status, or 0 when no HTTP answer came (refused, reset, timeout). */
  status: number;
  body: string;
  error?: string;
}

/**
 * POSTs with a fresh connection each time (agent: false): WeChat's notifier does not share
 * connections with us, and pooled keep-alive sockets would outlive close() in tests.
 * Every in-flight request is tracked so close() can abort it.
 */
export class Poster {
  private readonly inflight = new Set<http.ClientRequest>();
  private closed = false;

  post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<PostResult> {
    if (this.closed) return Promise.resolve({ status: 0, body: '', error: 'simulator closed' });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.resolve({ status: 0, body: '', error: `invalid URL ${url}` });
    }
    const lib = target.protocol === 'https:' ? https : http;
    return new Promise((resolve) => {
      const req = lib.request(target, {
        method: 'POST',
        agent: false,
        headers: {
          ...headers,
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(body)),
          'User-Agent': 'Mozilla/4.0 (wechat-sim notifier)',
          Connection: 'close',
        },
      });
      this.inflight.add(req);
      const done = (result: PostResult) => {
        this.inflight.delete(req);
        resolve(result);
      };
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
      req.on('error', (err) => done({ status: 0, body: '', error: err.message }));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => done({ status: 0, body: '', error: err.message }));
        res.on('end', () =>
          done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
      });
      req.end(body);
    });
  }

  close(): void {
    this.closed = true;
    for (const req of this.inflight) req.destroy(new Error('simulator closed'));
    this.inflight.clear();
  }
}
