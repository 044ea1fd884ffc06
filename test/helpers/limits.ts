/**
 * Time limits for tests that do heavy work (child processes, a neural network, a browser). A fixed
 * limit fails such a test on a busy machine without anything being wrong: the suite's own two
 * workers, another suite beside it, or a build can leave a test a fifth of the CPU it has on a
 * quiet machine. A heavy test says how long its work takes on a quiet 2-core machine and gets a
 * limit scaled from that.
 */
import os from 'node:os';

/** The load per core a limit always allows for: load 12 on 2 cores (a second suite beside this one). */
const LOAD_FLOOR = 6;
/** Room for the spread of one test's time between runs on the same machine. */
const MARGIN = 3;

/**
 * The wall-clock limit in ms for work that takes `quietSeconds` on a quiet 2-core machine:
 * `quietSeconds` × 3 × the load per core (the 1-minute load average when the test file loads, at
 * least 6 so that load rising during the test is covered) × 2 / cores on a machine with fewer than
 * 2 cores. For example 10 s of work gets 180 s on 2 cores, and 300 s at load 20.
 *
 * @example
 * it('segments in two processes', async () => { ... }, heavyLimit(15));
 */
export function heavyLimit(quietSeconds: number): number {
  const cores = Math.max(1, os.availableParallelism());
  const perCore = Math.max(LOAD_FLOOR, os.loadavg()[0]! / cores);
  return Math.ceil(quietSeconds * MARGIN * perCore * Math.max(1, 2 / cores) * 1000);
}
