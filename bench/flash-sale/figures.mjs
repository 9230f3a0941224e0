// The flash-sale bench's derived figures: what its measurements come to once set against each
// other (bench/flash-sale/run.mjs measures; these only compute, and scripts/test checks them).
import os from 'node:os';

/**
 * The ratio this run's machine would allow a server whose every purchase cost only the route's
 * floor (floor_cpu_us: authenticated, body parsed, refused 400), the other processes (MySQL,
 * Redis, this load generator) costing per request what they did in the sale: one event loop
 * answers at most 1e6 / floor requests a second, and the machine's cores carry every process's
 * CPU. Under the 0.35, no server that authenticates and parses a purchase on this stack
 * could have met the target in this run, whatever it then did.
 */
export function ratioCeilingAtFloor(floorUs, cpuPerRequest, helloRps, cores = os.cpus().length) {
  const others = cpuPerRequest.mysqld + cpuPerRequest.redis + cpuPerRequest.loadgen;
  const rps = Math.min(1e6 / floorUs, (cores * 1e6) / (floorUs + others));
  return Number((rps / helloRps).toFixed(3));
}

/** The server's CPU per request in the phases after the sale (cpuPhases), beside the hello-world's and the raw server's. */
export function phaseFigures(phases, hello, rawUs, ceilingAtRaw) {
  return {
    // Server CPU µs per request in the two phases after the sale (cpuPhases): a sale, a refusal
    refusal_cpu_us: phases.refusal.cpuUs,
    success_cpu_us: phases.success.cpuUs,
    // The hello-world's server CPU per request in the same run, and a refusal in those units:
    // what a refusal costs beyond the HTTP floor, in a figure that moves less than the rates.
    hello_cpu_us: Math.round(hello.cpuUs),
    refusal_over_hello: Number((phases.refusal.cpuUs / hello.cpuUs).toFixed(1)),
    // The purchase route's floor (cpuPhases): a request refused 400 after authentication, body
    // parsing and checks, before the order service: the HTTP stack's share of a refusal.
    floor_cpu_us: phases.floor.cpuUs,
    refusal_over_floor_us: phases.refusal.cpuUs - phases.floor.cpuUs,
    // A raw node:http server's CPU per request of the same shape (bench/raw-http: the purchase's
    // headers and body read and parsed, a refusal written with the API's headers), in this run:
    // what Node's HTTP alone costs it. floor - raw is what our code adds before the order
    // service (the token, the body's checks, the answer), and the ceiling at raw the ratio this
    // machine allowed a server that spent nothing of its own on a purchase.
    raw_purchase_cpu_us: Math.round(rawUs),
    floor_over_raw_us: Math.round(phases.floor.cpuUs - rawUs),
    ratio_ceiling_at_raw: ceilingAtRaw,
  };
}

/**
 * The sale's server CPU against its requests at the phases' prices (success_cpu_us, refusal_cpu_us
 * in the sale's mix): the phases buy one seat an order, the sale 1-4 units, with every core busy.
 */
export function saleAgainstPhases({ a, s, requests, refused, serverUs, phases }) {
  const mixUs = (s.created * phases.success.cpuUs + refused * phases.refusal.cpuUs) / requests;
  return {
    // Units a committed order of the sale holds, on average (the phases': 1)
    units_per_order: s.created ? Number((a.sold / s.created).toFixed(2)) : null,
    // The server's CPU per request had each of the sale's requests cost what its phase did
    phase_mix_cpu_us: Math.round(mixUs),
    sale_over_phase_mix: mixUs ? Number((serverUs / mixUs).toFixed(2)) : null,
  };
}
