/**
 * Temporary folders for tests, removed when the test file that made them ends: by
 * test/helpers/tmp-cleanup.ts, a setup file of every project (vitest.config.ts), whose `afterAll`
 * runs after the file's own. A hook registered here would not do: `afterAll` called while a test
 * runs is silently dropped, so a folder made inside a test was never removed.
 */
import { mkdtempSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** The folders made since the current test file started (one file at a time per worker). */
const made: string[] = [];

/** A fresh temporary folder, deleted when the test file finishes. */
export async function tempDir(prefix = 'stimkit-test-'): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** `tempDir` for a file's top level, where nothing can be awaited: deleted when the file finishes. */
export function tempDirSync(prefix = 'stimkit-test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Delete every folder `tempDir` made since the last call (at the end of each test file). */
export async function removeTempDirs(): Promise<void> {
  const dirs = made.splice(0);
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}
