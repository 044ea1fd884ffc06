/**
 * `npm run bench -- startup [--repeat N]`
 *
 * What a `stimkit` process costs before and around its work, in CPU seconds (user + system of
 * the whole process, every thread; the machine may be shared, so CPU rather than wall time),
 * median of N runs (default 5) of the built binary (bin/stimkit.js, which runs the bundle in
 * dist/app/; run `npm run build` first):
 * - `<command> --help` for the commands the tests and users spawn most, and `stimkit --help`
 *   (which loads every command);
 * - `verify` of a small sealed bag (the run tests' fixture: 20 text trials and 2 image trials);
 * - `run --dry-run` of that bag (bundle read and verified, requests planned, nothing sent);
 * - `run` of that bag into a fresh ledger against a loopback server that answers at once.
 * The figures include the small preload that reports each process's CPU time. No target: they
 * are for comparing a change with the code before it (the same bench on both, back to back).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeRunBag } from '../test/run/fixture.js';

const BIN = fileURLToPath(new URL('../bin/stimkit.js', import.meta.url));
const args = process.argv.slice(3);
const REPEAT = args.includes('--repeat') ? Number(args[args.indexOf('--repeat') + 1]) : 5;
const print = (s: string) => process.stdout.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** Written at exit on fd 3: the process's own CPU time (all threads), in µs. */
const CPU_AT_EXIT = `data:text/javascript,${encodeURIComponent(
  `import { writeSync } from 'node:fs';
process.on('exit', () => { const u = process.cpuUsage(); writeSync(3, String(u.user + u.system)); });`,
)}`;

/** CPU seconds of one `stimkit <argv>` process. */
function cpuOf(argv: string[], cwd: string): number {
  const r = spawnSync(process.execPath, ['--import', CPU_AT_EXIT, BIN, ...argv], {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  const out = r.output[3];
  if (r.status !== 0 || !out) throw new Error(`stimkit ${argv.join(' ')} failed:\n${r.stderr}`);
  return Number(out) / 1e6;
}

const SERVER = `
const http = require('node:http');
const reply = JSON.stringify({ id: 'x', object: 'chat.completion', model: 'bench', choices: [{ index: 0, message: { role: 'assistant', content: 'Agree.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } });
const s = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reply) }); res.end(reply); }); });
s.listen(0, '127.0.0.1', () => process.stdout.write(String(s.address().port) + '\\n'));
`;

const dir = await mkdtemp(path.join(tmpdir(), 'stimkit-bench-startup-'));
const server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const port = await new Promise<string>((resolve) =>
    server.stdout.once('data', (d) => resolve(String(d).trim())),
  );
  const bag = path.join(dir, 'bag');
  await writeRunBag(bag, 20);
  const endpoint = ['--model', 'm', '--endpoint', `http://127.0.0.1:${port}/v1`];
  let ledgers = 0;
  const ledger = () => ['--ledger', path.join(dir, `ledger-${++ledgers}.sqlite`)];
  const cases: Array<[string, () => string[]]> = [
    ...['run', 'verify', 'score', 'batch', 'bundle', 'variants', 'report', 'label', 'demo'].map(
      (c): [string, () => string[]] => [`${c} --help`, () => [c, '--help']],
    ),
    ['--help (every command)', () => ['--help']],
    ['verify (22-trial bag)', () => ['verify', bag]],
    ['run --dry-run (22-trial bag)', () => ['run', bag, ...endpoint, '--dry-run', ...ledger()]],
    ['run (22 trials, loopback server)', () => ['run', bag, ...endpoint, ...ledger()]],
  ];
  print(`stimkit start-up: CPU seconds per process, median of ${REPEAT} (node ${process.version})`);
  print(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const [name, argv] of cases) {
    const runs = Array.from({ length: REPEAT }, () => cpuOf(argv(), dir));
    print(
      `  ${name.padEnd(36)} ${median(runs).toFixed(2)} s (min ${Math.min(...runs).toFixed(2)})`,
    );
  }
  print(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  server.kill();
  await rm(dir, { recursive: true, force: true });
}
