/**
 * WeChat APIs as a release needs them: no deprecated getSystemInfoSync, and ids from a secure
 * random source where the mini-program has no `crypto` (wx.getRandomValues).
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(__dirname, '../../src');
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.(ts|tsx)$/.test(name) ? [p] : [];
  });
}

it('no page or component calls the deprecated getSystemInfoSync (getWindowInfo / getDeviceInfo instead)', () => {
  const users = sources(SRC).filter((f) => readFileSync(f, 'utf8').includes('getSystemInfoSync'));
  expect(users.map((f) => path.relative(SRC, f))).toEqual([]);
});

it('Math.random appears only as the fallback of utils/random and the queue backoff jitter', () => {
  const users = sources(SRC).filter((f) => readFileSync(f, 'utf8').includes('Math.random'));
  expect(users.map((f) => path.relative(SRC, f)).sort()).toEqual(['services/queue.ts', 'utils/random.ts']);
});

describe('random ids without crypto (the mini-program)', () => {
  const realCrypto = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
  beforeEach(() => {
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
  });
  afterEach(() => {
    if (realCrypto) Object.defineProperty(globalThis, 'crypto', realCrypto);
    jest.restoreAllMocks();
  });

  it("take WeChat's secure bytes (wx.getRandomValues), fetched at load and refilled, never Math.random", async () => {
    const random = jest.spyOn(Math, 'random');
    const served: Buffer[] = [];
    const getRandomValues = jest.fn(async ({ length }: { length: number }) => {
      const bytes = randomBytes(length);
      served.push(bytes);
      return { randomValues: new Uint8Array(bytes).buffer, errMsg: 'getRandomValues:ok' };
    });
    let mod!: typeof import('../../src/utils/random');
    jest.isolateModules(() => {
      // A fresh module registry: the Taro stand-in that random.ts will see gets wx.getRandomValues.
      require('./stubs/taro').default.getRandomValues = getRandomValues;
      mod = require('../../src/utils/random');
    });
    await mod.primeRandom(); // the fetch started when the module loaded
    expect(getRandomValues).toHaveBeenCalledWith({ length: 1024 });
    expect(mod.randomId('dev', 4).split('-')[2]).toBe(served[0]!.subarray(0, 4).toString('hex'));
    const ids = new Set<string>();
    for (let i = 0; i < 200; i++) {
      ids.add(mod.randomId('order')); // 2,400 bytes in all: more than one fetch holds
      if (i % 10 === 9) await new Promise((r) => setTimeout(r, 0)); // ids come with user actions
    }
    await mod.primeRandom();
    expect(ids.size).toBe(200);
    expect(getRandomValues.mock.calls.length).toBeGreaterThan(1); // refilled before running dry
    expect(random).not.toHaveBeenCalled();
  });
});
