/** Temporary folders for tests, removed after each test file. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/** A fresh temporary folder, deleted when the test file finishes. */
export async function tempDir(prefix = 'stimkit-test-'): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  afterAll(() => rm(dir, { recursive: true, force: true }));
  return dir;
}
