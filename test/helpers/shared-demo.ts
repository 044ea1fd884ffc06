/**
 * One `stimkit demo` for the whole suite. The first test file that asks for it runs the real
 * binary from scratch (`stimkit demo --out DIR --json`, the README's main command) into the
 * suite's shared folder (made by test/helpers/shared-setup.ts); every other file that asks waits
 * for that run and reads the same outputs. The outputs are shared read-only: a test that changes
 * anything copies what it changes into its own temporary folder first.
 *
 * The demo is started on first use, not by the global setup, so that a run of a few test files
 * that do not need it does not pay for it.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';
import { ROOT } from './cli.js';
import { demoFiles } from './shared-setup.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A temporary folder the suite's test files share (removed after the run). */
    sharedDir: string;
  }
}

/** The shared demo run: its output folder and what the command printed and returned. */
export interface DemoRun {
  out: string;
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (throws if it is not). */
  json: () => any;
}

/** How often a waiting test file looks for the run's result. */
const POLL_MS = 250;

/** Whether this file is the first to ask (an atomic mkdir: exactly one caller wins). */
async function claim(folder: string): Promise<boolean> {
  try {
    await mkdir(folder);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/** Run the binary's demo into `files.out` and write its result (atomically: existence = done). */
async function build(files: ReturnType<typeof demoFiles>): Promise<void> {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'bin', 'stimkit.js'), 'demo', '--out', files.out, '--json'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await writeFile(files.pid, String(child.pid));
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
  child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  const tmp = `${files.result}.tmp`;
  await writeFile(tmp, JSON.stringify({ code, stdout, stderr }));
  await rename(tmp, files.result);
}

/** The result once it exists (the caller's test limit bounds the wait). */
async function waitFor(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  for (;;) {
    try {
      return JSON.parse(await readFile(file, 'utf8'));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * The suite's one demo run (started by the first caller, awaited by all). About 50 s of work on a
 * quiet 2-core machine: a caller's limit is `heavyLimit(50)`.
 *
 * @example
 * const demo = await sharedDemo();
 * expect(demo.code, demo.stderr).toBe(0);
 * const ledger = path.join(demo.out, 'ledger.sqlite'); // read it; copy it before changing it
 */
export async function sharedDemo(): Promise<DemoRun> {
  const files = demoFiles(inject('sharedDir'));
  if (await claim(files.claim)) await build(files);
  const r = await waitFor(files.result);
  return { out: files.out, ...r, json: () => JSON.parse(r.stdout) };
}
