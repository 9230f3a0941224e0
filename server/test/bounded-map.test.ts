import { setBounded } from '../src/bounded-map';

describe('setBounded: a Map that keeps at most max entries, dropping the oldest', () => {
  it('drops the oldest key when a new one comes past the bound', () => {
    const m = new Map<string, number>();
    for (const [i, k] of ['a', 'b', 'c', 'd'].entries()) setBounded(m, k, i, 3);
    expect([...m.keys()]).toEqual(['b', 'c', 'd']);
  });

  it('sets a key already held in its place, dropping nothing', () => {
    const m = new Map<string, number>([
      ['a', 0],
      ['b', 1],
      ['c', 2],
    ]);
    setBounded(m, 'a', 9, 3);
    expect([...m.entries()]).toEqual([
      ['a', 9],
      ['b', 1],
      ['c', 2],
    ]);
  });

  it('holds nothing with a bound of 0 or less', () => {
    const m = new Map<string, number>();
    setBounded(m, 'a', 1, 0);
    setBounded(m, 'b', 1, -1);
    expect(m.size).toBe(0);
  });
});
