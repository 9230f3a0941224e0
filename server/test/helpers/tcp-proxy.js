// Plain CommonJS (its types in tcp-proxy.d.ts) so that both the jest suites and the chaos bench
// (bench/chaos/stack.mjs, plain Node) use this one proxy.
const { connect, createServer } = require('node:net');

/**
 * A TCP proxy a test (or the chaos bench) puts between the server and a real service, to cut it
 * at will: set('down') drops every connection and refuses new ones (MySQL gone), set('blackhole')
 * still delivers what clients send but drops the answers (a COMMIT that reaches MySQL while its
 * OK never comes back), set('up') forwards both ways again.
 */
async function startTcpProxy(target) {
  let mode = 'up';
  const open = new Set();
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
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const set = (m) => {
    mode = m;
    if (m === 'down') for (const s of open) s.destroy();
  };
  return {
    port: server.address().port,
    set,
    close: () => (set('down'), new Promise((r) => server.close(() => r()))),
  };
}

module.exports = { startTcpProxy };
