import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/**
 * 'up' forwards both ways; 'down' drops every connection and refuses new ones (MySQL gone);
 * 'blackhole' still delivers what clients send but drops the answers (a COMMIT that reaches
 * MySQL while its OK never comes back).
 */
export type ProxyMode = 'up' | 'down' | 'blackhole';

export interface TcpProxy {
  port: number;
  set(mode: ProxyMode): void;
  close(): Promise<void>;
}

/** A TCP proxy a test puts between the server and a real service, to cut it at will. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'up';
  const open = new Set<Socket>();
  const server = createServer((client) => {
    if (mode === 'down') return void client.destroy();
    const upstream = connect(target.port, target.host);
    const close = () => (client.destroy(), upstream.destroy());
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('error', close).on('close', () => (open.delete(s), close()));
    }
    client.on('data', (b) => upstream.write(b));
    upstream.on('data', (b) => mode === 'up' && client.write(b));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const set = (m: ProxyMode) => {
    mode = m;
    if (m === 'down') for (const s of open) s.destroy();
  };
  return {
    port: (server.address() as AddressInfo).port,
    set,
    close: () => (set('down'), new Promise<void>((r) => server.close(() => r()))),
  };
}
