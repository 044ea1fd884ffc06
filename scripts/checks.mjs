#!/usr/bin/env node
/**
 * The checks `npm test` runs before the tests, at the same time instead of one after another:
 * `node scripts/checks.mjs typecheck format:check lint` runs those npm scripts side by side (the
 * type check and ESLint each keep one core busy for about a minute), prints each one's output
 * whole when it ends, and exits 1 when any of them failed.
 */
import { spawn } from 'node:child_process';

/** Run `npm run <name>`; resolves true when it exits 0, after printing its output. */
function run(name) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    child.on('error', (e) => chunks.push(Buffer.from(`${e.message}\n`)));
    child.on('close', (code) => {
      const ok = code === 0;
      process.stdout.write(`> ${name}: ${ok ? 'passed' : `FAILED (exit ${code})`}\n`);
      process.stdout.write(Buffer.concat(chunks));
      resolve(ok);
    });
  });
}

const results = await Promise.all(process.argv.slice(2).map(run));
process.exitCode = results.every(Boolean) ? 0 : 1;
