// Makes sure MariaDB/MySQL, Redis and RabbitMQ answer; starts the local ones that are down
// (with the same commands this machine kind uses at boot). Services configured on another
// host (MYSQL_URL, REDIS_URL, AMQP_URL) are only checked.
import { tryRun, portOpen, waitPort } from './lib.mjs';

const local = (url, fallbackPort) => {
  const u = new URL(url);
  return {
    local: ['127.0.0.1', 'localhost', '::1'].includes(u.hostname),
    port: Number(u.port || fallbackPort),
  };
};

const SERVICES = [
  {
    name: 'MariaDB',
    ...local(process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/showtix', 3306),
    start: 'start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd -- --user=mysql',
  },
  {
    name: 'Redis',
    ...local(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 6379),
    start:
      'mkdir -p /var/lib/redis /var/log/redis && redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log',
  },
  {
    name: 'RabbitMQ',
    ...local(process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672', 5672),
    // The node may be up with its app stopped (start_app), or not running at all (-detached).
    start: 'rabbitmqctl -q start_app 2>/dev/null || rabbitmq-server -detached',
  },
];

export async function ensureServices() {
  for (const s of SERVICES) {
    if (await portOpen(s.port)) {
      console.log(`${s.name}: up on ${s.port}`);
      continue;
    }
    if (!s.local) throw new Error(`${s.name} is not reachable on its configured host (port ${s.port})`);
    console.log(`${s.name}: down, starting it ...`);
    if (!tryRun(s.start)) console.log(`${s.name}: the start command failed; waiting anyway`);
    await waitPort(s.port, s.name, 120_000);
    console.log(`${s.name}: up on ${s.port}`);
  }
  // RabbitMQ opens its port before it accepts connections fully.
  tryRun('rabbitmqctl -q await_startup --timeout 60');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureServices().catch((err) => {
    console.error(err.message);
    process.exit(1);
  });
}
