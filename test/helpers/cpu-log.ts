/**
 * The CPU each test file costs, for finding what makes the suite slow (off unless asked for):
 * `STIMKIT_CPU_LOG=/tmp/cpu.jsonl npx vitest run <files>` appends one line per test file, when it
 * ends, to that file: `{"file", "self", "children"}`, the CPU-seconds (user + system) of the file's
 * own worker process and of the child processes it waited for (a spawned `stimkit`, Chromium…).
 * Every Node.js process a test starts also appends a line `{"child", "argv"}` when it starts
 * (test/helpers/cpu-child.mjs, through NODE_OPTIONS), so that the spawned CLI processes can be
 * counted. Linux only (/proc). vitest's own main process (transforms, the global setup) is not in
 * any line: `/usr/bin/time` around the whole run gives the total.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { afterAll, expect } from 'vitest';

const LOG = process.env.STIMKIT_CPU_LOG;
/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const HZ = 100;

/** CPU-seconds of this process and of its waited-for children, from /proc/self/stat. */
function cpuSeconds(): { self: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // After the command name: field 3 (state) first, so utime, stime, cutime, cstime at 11–14.
  const f = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return { self: (f[11]! + f[12]!) / HZ, children: (f[13]! + f[14]!) / HZ };
}

if (LOG) {
  const child = fileURLToPath(new URL('./cpu-child.mjs', import.meta.url));
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import=${child}`.trim();
  afterAll(() => {
    const file = path.relative(process.cwd(), expect.getState().testPath ?? '');
    appendFileSync(LOG, `${JSON.stringify({ file, ...cpuSeconds() })}\n`);
  });
}
