// bench/flash-sale/figures.mjs: the flash-sale bench's derived figures, mostly on the
// measurements of the run of 2026-12-07 05:18 (bench/results), whose JSON had the same
// units_per_order, phase_mix_cpu_us, sale_over_phase_mix and ratio_ceiling_at_floor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { phaseFigures, ratioCeilingAtFloor, saleAgainstPhases } from '../../bench/flash-sale/figures.mjs';

const phases = {
  success: { cpuUs: 114 },
  refusal: { cpuUs: 47 },
  floor: { cpuUs: 42 },
};
const perRequest = { server: 83, mysqld: 22, redis: 17, loadgen: 22 };

test("the sale against its own mix at the phases' prices", () => {
  const f = saleAgainstPhases({
    a: { sold: 129_501 },
    s: { created: 56_129 },
    requests: 200_000,
    refused: 200_000 - 56_129,
    serverUs: perRequest.server,
    phases,
  });
  // (56,129 x 114 + 143,871 x 47) / 200,000 = 65.8 µs; 83 / 65.8 = 1.26
  assert.deepEqual(f, { units_per_order: 2.31, phase_mix_cpu_us: 66, sale_over_phase_mix: 1.26 });
});

test('a sale that sold nothing has no units per order, and its mix is all refusals', () => {
  const f = saleAgainstPhases({
    a: { sold: 0 },
    s: { created: 0 },
    requests: 1000,
    refused: 1000,
    serverUs: 94,
    phases,
  });
  assert.deepEqual(f, { units_per_order: null, phase_mix_cpu_us: 47, sale_over_phase_mix: 2 });
});

test('the ceiling at the floor: the event loop bounds it, or the cores shared with the other processes', () => {
  // One loop at 42 µs answers 23,810/s; two cores at 42 + 61 µs a request carry 19,417/s: the lower
  assert.equal(ratioCeilingAtFloor(42, perRequest, 40_544, 2), 0.479);
  // On one core the shared CPU bounds it sooner: 9,709/s
  assert.equal(ratioCeilingAtFloor(42, perRequest, 40_544, 1), 0.239);
  // With many cores only the loop does: 23,810/s
  assert.equal(ratioCeilingAtFloor(42, perRequest, 40_544, 64), 0.587);
});

test('the phase figures against the hello-world and the raw server', () => {
  const f = phaseFigures(phases, { cpuUs: 25.6 }, 27.4, 0.6);
  assert.deepEqual(f, {
    refusal_cpu_us: 47,
    success_cpu_us: 114,
    hello_cpu_us: 26,
    refusal_over_hello: 1.8,
    floor_cpu_us: 42,
    refusal_over_floor_us: 5,
    raw_purchase_cpu_us: 27,
    floor_over_raw_us: 15,
    ratio_ceiling_at_raw: 0.6,
  });
});
