/**
 * scripts/checks.mjs with a command after `--`, as `npm test` runs it (the checks beside the
 * vitest suite): the command runs with its output live, and the exit code and the last line say
 * what failed — a failed check fails the run even when the command passed, and the other way
 * round. Small commands stand in for the suite, and a package script that does not exist for a
 * failing check.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');
const SCRIPT = path.join(REPO, 'scripts/checks.mjs');

/** Run checks.mjs with `args`; its exit code and output. */
function checks(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT, ...args], { cwd: REPO });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (out += t));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** The last line of `out`. */
const last = (out: string) => out.trimEnd().split('\n').at(-1);

describe('scripts/checks.mjs -- <command>', () => {
  it('runs the command with its output, and passes when it and every check pass', async () => {
    const r = await checks(['--', process.execPath, '-e', 'console.log("suite ran")']);
    expect(r.out).toContain('suite ran\n');
    expect(last(r.out)).toBe('> checks and tests: passed');
    expect(r.code).toBe(0);
  });

  it('fails when the command fails, naming it', async () => {
    const r = await checks(['--', process.execPath, '-e', 'process.exit(3)']);
    expect(r.code).toBe(1);
    expect(last(r.out)).toBe(`> FAILED: ${process.execPath} -e process.exit(3)`);
  });

  it('fails when a check fails though the command passed, naming the check', async () => {
    const r = await checks(['no-such-script', '--', process.execPath, '-e', '0']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('> no-such-script: FAILED (exit 1)');
    expect(last(r.out)).toBe('> FAILED: no-such-script');
  });
});
