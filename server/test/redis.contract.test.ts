import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { CONTRACTS, sessionKeys } from '../src/redis/contract';
import { Keys, scriptKeys } from '../src/redis/keys';
import { orderRecord, seatValue, type OrderRecord } from '../src/redis/records';
import { loadScriptSource } from '../src/redis/scripts';

/**
 * The Redis contract (issue 15): each `name-N.lua` header names N KEYS and its ARGV in the order
 * its wrapper in redis/contract.ts sends them; every @include resolves; and the TypeScript codec
 * (redis/records.ts) reads what the Lua writes and writes what the Lua reads.
 */
const LUA_DIR = path.join(__dirname, '../src/redis/lua');
const SCRIPTS = readdirSync(LUA_DIR)
  .map((f) => /^([a-zA-Z]+)-(\d+)\.lua$/.exec(f))
  .filter((m): m is RegExpExecArray => m !== null);

/** The --[[ ... ]] header's KEYS and plain-index ARGV names (first word, without ':'). */
function header(file: string): { keys: string[]; argv: string[] } {
  const text = readFileSync(path.join(LUA_DIR, file), 'utf8');
  const head = text.slice(text.indexOf('--[['), text.indexOf(']]'));
  const word = (w: string) => w.replace(/[:,]$/, '');
  const keys: string[] = [];
  for (const m of head.matchAll(/KEYS\[(\d+)\]\s+(\S+)/g)) keys[Number(m[1]) - 1] = word(m[2]!);
  // A range with a list: KEYS[3..8] users, orders, pending, ...
  for (const m of head.matchAll(/KEYS\[(\d+)\.\.(\d+)\]\s+([^\n(]+)/g)) {
    const names = m[3]!.split(',').map((s) => s.trim().split(/\s+/)[0]!);
    names.forEach((n, i) => (keys[Number(m[1]) - 1 + i] = n));
  }
  const argv: string[] = [];
  for (const m of head.matchAll(/ARGV\[(\d+)\]\s+(\S+)/g)) argv[Number(m[1]) - 1] = word(m[2]!);
  return { keys, argv };
}

describe('each script header matches its contract', () => {
  it('every script has a contract and every contract a script', () => {
    expect(SCRIPTS.map((m) => m[1]).sort()).toEqual(Object.keys(CONTRACTS).sort());
  });

  it.each(SCRIPTS.map((m) => [m[0], m[1]!, Number(m[2])] as const))('%s', (file, name, numKeys) => {
    const h = header(file);
    const c = CONTRACTS[name as keyof typeof CONTRACTS];
    expect(h.keys).toHaveLength(numKeys);
    expect(h.keys).toEqual(c.keys);
    expect(h.argv).toEqual(c.argv);
  });

  it('the key builder gives the KEYS in the contract order', () => {
    const k = new Keys('p:').session('9');
    expect(scriptKeys.take(k, k.seats, 'j')).toEqual(sessionKeys('lockSeats', k, 'j'));
    expect(scriptKeys.take(k, k.zslots, 'j')).toEqual(sessionKeys('takeZone', k, 'j'));
    expect(scriptKeys.confirmOrder(k)).toEqual(sessionKeys('confirmOrder', k));
    expect(scriptKeys.releaseOrder(k, 'j')).toEqual(sessionKeys('releaseOrder', k, 'j'));
    expect(scriptKeys.retakeOrder(k)).toEqual(sessionKeys('retakeOrder', k));
    expect(scriptKeys.moveAttendee(k)).toEqual(sessionKeys('moveAttendee', k));
  });
});

describe('@include', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'showtix-lua-'));
    writeFileSync(path.join(dir, '_a.lua'), 'local A = 1\n');
    writeFileSync(path.join(dir, '_b.lua'), '-- @include "_a.lua"\nlocal B = A + 1\n');
    writeFileSync(path.join(dir, 'two-0.lua'), '-- @include "_a.lua"\n-- @include "_b.lua"\nreturn B\n');
    writeFileSync(
      path.join(dir, 'missing-0.lua'),
      '-- @include "_a.lua"\n-- @include "_gone.lua"\nreturn 1\n',
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves every include, nested ones too, each file once', () => {
    const src = loadScriptSource('two-0.lua', dir);
    expect(src).toContain('local A = 1');
    expect(src).toContain('local B = A + 1');
    expect(src.match(/local A = 1/g)).toHaveLength(1);
    expect(src).not.toMatch(/^-- @include/m);
  });

  it('fails loudly on a missing include', () => {
    expect(() => loadScriptSource('missing-0.lua', dir)).toThrow(
      'missing-0.lua: @include "_gone.lua" not found',
    );
  });

  it('leaves no include unresolved in the real scripts', () => {
    for (const [file] of SCRIPTS) expect(loadScriptSource(file)).not.toMatch(/^-- @include/m);
  });
});

describe('the TypeScript codec is the twin of _record.lua', () => {
  let redis: Redis;
  // No keys: the helpers of _record.lua run on their own, nothing is written.
  const run = (body: string, ...args: string[]) =>
    redis.eval(loadScriptSource('confirmOrder-4.lua').split('local orderId')[0] + body, 0, ...args);
  beforeAll(() => {
    redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0', { lazyConnect: true });
  });
  afterAll(() => redis.quit());

  const rec: OrderRecord = {
    state: 'H',
    userId: 'u7',
    qty: 2,
    kind: 's',
    units: ['101', '102'],
    idem: 'u7:key',
    idHashes: ['h1', 'h2'],
    over: ['101:o9:123'],
  };

  it('reads the record the Lua writes', async () => {
    const lua = `return recordString('S', { user = 'u7', qty = 2, kind = 'z3', units = { '3:1', '3:2' },
      idem = '', ids = {}, over = {} })`;
    const written = String(await run(lua));
    expect(orderRecord.decode(written)).toEqual({
      state: 'S',
      userId: 'u7',
      qty: 2,
      kind: 'z3',
      units: ['3:1', '3:2'],
      idem: '',
      idHashes: [],
      over: [],
    });
  });

  it('writes the record the Lua reads', async () => {
    const lua = `local r = parseRecord(ARGV[1])
      return { r.state, r.user, r.qty, r.kind, table.concat(r.units, ','), r.idem, table.concat(r.ids, ','),
        table.concat(r.over, ',') }`;
    const read = (await run(lua, orderRecord.encode(rec))) as (string | number)[];
    expect(read).toEqual(['H', 'u7', 2, 's', '101,102', 'u7:key', 'h1,h2', '101:o9:123']);
  });

  it("reads the seat values the Lua writes ('H|orderId|until', 'S|orderId')", () => {
    const held = seatValue.held('o1', 5000);
    expect(held).toBe('H|o1|5000');
    expect(seatValue.decode(held)).toEqual({ state: 'H', orderId: 'o1', holdUntilMs: 5000 });
    expect(seatValue.decode(seatValue.sold('o1'))).toEqual({ state: 'S', orderId: 'o1' });
    expect(seatValue.stateAt(held, 4999)).toBe('held');
    expect(seatValue.stateAt(held, 5000)).toBe('expired');
    expect(seatValue.stateAt('S|o1', 9e15)).toBe('sold');
    expect(seatValue.orderOf(held)).toBe('o1');
    expect(() => seatValue.decode('X|o1')).toThrow('not a seat value');
  });

  it('writes the seat values the Lua compares against', async () => {
    const lua = `return { 'H|' .. ARGV[1] .. '|' .. ARGV[2], 'S|' .. ARGV[1] }`;
    expect(await run(lua, 'o5', '777')).toEqual([seatValue.held('o5', 777), seatValue.sold('o5')]);
  });
});

describe('every Redis key is built in redis/keys.ts', () => {
  const SRC = path.join(__dirname, '../src');
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? files(path.join(dir, e.name))
        : e.name.endsWith('.ts')
          ? [path.join(dir, e.name)]
          : [],
    );

  it('no other file puts the Redis key prefix into a string', () => {
    const outside = files(SRC)
      .filter((f) => !f.endsWith(path.join('redis', 'keys.ts')))
      .filter((f) => /\$\{[\w.]*(keyPrefix|redisKeyPrefix)\}/.test(readFileSync(f, 'utf8')))
      .map((f) => path.relative(SRC, f));
    expect(outside).toEqual([]);
  });
});
