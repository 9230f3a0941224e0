import { workflow } from '../src/lifecycle/workflow';

/** The workflow runner: steps in order; a compensated failure undoes it and every step before it. */
class Refused extends Error {}

function flow(failAt: number | undefined, err: Error = new Refused('no')) {
  const log: string[] = [];
  const step = (n: number) => ({
    name: `s${n}`,
    run: async () => {
      log.push(`run ${n}`);
      if (n === failAt) throw err;
    },
    compensate: async () => void log.push(`undo ${n}`),
  });
  const w = workflow('test', [step(1), step(2), step(3)], (e) => e instanceof Refused);
  return { log, run: () => w.run({}) };
}

it('runs every step in order', async () => {
  const f = flow(undefined);
  await f.run();
  expect(f.log).toEqual(['run 1', 'run 2', 'run 3']);
});

it('a compensated failure undoes the failing step and those before it, latest first, then throws', async () => {
  const f = flow(2);
  await expect(f.run()).rejects.toBeInstanceOf(Refused);
  expect(f.log).toEqual(['run 1', 'run 2', 'undo 2', 'undo 1']);
});

it('any other error is thrown as it is, nothing undone (the caller retries the idempotent flow)', async () => {
  const f = flow(2, new Error('connection lost'));
  await expect(f.run()).rejects.toThrow('connection lost');
  expect(f.log).toEqual(['run 1', 'run 2']);
});
