/**
 * The CPU each test file costs, for finding what makes the suite slow (off unless asked for):
 * `STIMKIT_CPU_LOG=/tmp/cpu.jsonl npx vitest run <files>` appends one line per test file, when it
 * ends, to that file: `{"file", "pid", "self", "children"}`, the CPU-seconds (user + system) the
 * file's worker process and the child processes it waited for (a spawned `stimkit`, Chromium…)
 * spent since the previous file of that worker ended (or the worker started).
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

/**
 * The reading at the end of the previous file of this worker: with `isolate: false` one process
 * runs many files, and this setup file runs again before each, so the reading lives on globalThis.
 */
const LAST = Symbol.for('stimkit.cpuLog.last');
type Holder = { [LAST]?: { self: number; children: number } };

if (LOG) {
  const child = fileURLToPath(new URL('./cpu-child.mjs', import.meta.url));
  const flag = `--import=${child}`;
  const options = process.env.NODE_OPTIONS ?? '';
  if (!options.includes(flag)) process.env.NODE_OPTIONS = `${options} ${flag}`.trim();
  const holder = globalThis as Holder;
  holder[LAST] ??= { self: 0, children: 0 };
  afterAll(() => {
    const file = path.relative(process.cwd(), expect.getState().testPath ?? '');
    const now = cpuSeconds();
    const before = holder[LAST]!;
    holder[LAST] = now;
    const round = (x: number) => Math.round(x * 100) / 100;
    appendFileSync(
      LOG,
      `${JSON.stringify({
        file,
        pid: process.pid,
        self: round(now.self - before.self),
        children: round(now.children - before.children),
      })}\n`,
    );
  });
}
