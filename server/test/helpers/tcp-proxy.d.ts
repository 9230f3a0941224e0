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
export function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy>;
