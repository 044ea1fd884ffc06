#!/usr/bin/env node
/**
 * The checks `npm test` runs beside its tests, side by side instead of one after another:
 * `node scripts/checks.mjs typecheck format:check lint` prints each job's output whole when it
 * ends, and exits 1 when any of them failed. The names are the package's scripts, run more
 * cheaply here than `npm run <name>` one after another:
 *
 * - `typecheck` and `lint` share one TypeScript program (scripts/typed-checks.mjs): the type
 *   check of tsconfig.json and ESLint over every file `eslint .` lints, incremental between runs.
 * - `lint` also runs knip twice, over everything and with `--production` (knip.ts says why), each
 *   with knip's cache of per-file analyses in .cache/knip.
 * - `format:check` is Prettier with its cache in .cache/prettier (package.json).
 * - Any other name is `npm run <name>`.
 *
 * A rerun with nothing changed reads the caches and checks nothing again; a fresh clone pays for
 * everything once. Each cache is kept under .cache/; deleting the folder starts afresh.
 *
 * `node scripts/checks.mjs <names> -- <command...>` (what `npm test` runs, the command being the
 * vitest suite) runs that command beside the checks, its output live, and exits 1 when it or any
 * check failed: the suite no longer waits for the checks with one core idle once Prettier and knip
 * are done and only the type check and ESLint run. Each check's output is printed when it ends,
 * and a last line names what failed. The checks keep the usual priority: at a lower one (nice 10)
 * they only took what the suite left idle on a quiet machine, but beside other work (load 10) they
 * waited for it, and `npm test` took twice as long.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const KNIP_CACHE = ['--cache', '--cache-location', '.cache/knip'];

/** The jobs that the named checks make: `[label, command, ...arguments]`. */
function jobs(names) {
  const typed = ['typecheck', 'lint'].filter((n) => names.includes(n));
  const flags = typed.length === 2 ? [] : typed.map((n) => `--${n}`);
  const list = [];
  if (typed.length > 0) {
    // Semi-spaces of 64 MiB instead of V8's default (16 on 64-bit): TypeScript's checker allocates
    // many short-lived objects, and fewer scavenges cost about 13 % less CPU from a fresh clone
    // (74 → 64 CPU-s, 54 → 45 s here; Prettier and knip gained nothing from it).
    const heap = '--max-semi-space-size=64';
    list.push([typed.join(' + '), process.execPath, heap, 'scripts/typed-checks.mjs', ...flags]);
  }
  if (names.includes('lint')) {
    list.push(
      ['knip', 'knip', ...KNIP_CACHE],
      ['knip --production', 'knip', '--production', ...KNIP_CACHE],
    );
  }
  for (const name of names.filter((n) => !typed.includes(n))) {
    list.push([name, 'npm', 'run', name]);
  }
  return list;
}

/** The environment of a job: node_modules/.bin first on the PATH, as `npm run` gives. */
function jobEnv() {
  const env = { ...process.env };
  env.PATH = [path.join(ROOT, 'node_modules', '.bin'), env.PATH].join(path.delimiter);
  return env;
}

/** Run one job; resolves true when it exits 0, after printing its output. */
function run([label, command, ...args]) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: jobEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks = [];
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    child.on('error', (e) => chunks.push(Buffer.from(`${e.message}\n`)));
    child.on('close', (code) => {
      const ok = code === 0;
      process.stdout.write(`> ${label}: ${ok ? 'passed' : `FAILED (exit ${code})`}\n`);
      process.stdout.write(Buffer.concat(chunks));
      resolve(ok);
    });
  });
}

/** Run `command` with this process's terminal, its output live; resolves true when it exits 0. */
function runLive([command, ...args]) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env: jobEnv(), stdio: 'inherit' });
    child.on('error', (e) => {
      process.stderr.write(`${command}: ${e.message}\n`);
      resolve(false);
    });
    child.on('close', (code) => resolve(code === 0));
  });
}

const argv = process.argv.slice(2);
const split = argv.indexOf('--');
const names = split < 0 ? argv : argv.slice(0, split);
const beside = split < 0 ? [] : argv.slice(split + 1);
const checks = jobs(names);
const [checked, ran] = await Promise.all([
  Promise.all(checks.map(run)),
  beside.length > 0 ? runLive(beside) : Promise.resolve(true),
]);
const failed = checks.filter((_, i) => !checked[i]).map(([label]) => label);
if (!ran) failed.push(beside.join(' '));
if (beside.length > 0)
  process.stdout.write(
    failed.length === 0 ? '> checks and tests: passed\n' : `> FAILED: ${failed.join(', ')}\n`,
  );
process.exitCode = failed.length === 0 ? 0 : 1;
