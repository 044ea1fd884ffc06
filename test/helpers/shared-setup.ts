// The suite's shared folder (test/helpers/shared-demo.ts): made before the first test file runs,
// handed to the files by `provide`, and removed after the last one, stopping a demo run that is
// still going (when the files that asked for it were cut short).
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

/** The shared folder's files: the demo's outputs, the run's result, its claim and its pid. */
export function demoFiles(dir: string) {
  return {
    out: path.join(dir, 'demo'),
    result: path.join(dir, 'demo.result.json'),
    claim: path.join(dir, 'demo.claim'),
    pid: path.join(dir, 'demo.pid'),
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'stimkit-suite-'));
  project.provide('sharedDir', dir);
  return async () => {
    const files = demoFiles(dir);
    if (existsSync(files.pid) && !existsSync(files.result)) {
      try {
        process.kill(Number(readFileSync(files.pid, 'utf8')), 'SIGKILL');
      } catch {
        // it ended between the check and the kill
      }
    }
    await rm(dir, { recursive: true, force: true });
  };
}
