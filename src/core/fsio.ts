/**
 * File input and output: atomic writes, hashing, and reading files with clear errors.
 *
 * Atomic write: the bytes go to a temporary file in the same folder, are fsynced, and the file is
 * renamed over the target, so a reader sees either the old file or the whole new one, never half.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { StimkitError } from './errors.js';

/** Write `data` to `file` atomically (temp file + fsync + rename), creating folders as needed. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await syncDir(dir);
}

/** fsync a directory so that a rename in it survives a crash (best effort; not all systems allow it). */
async function syncDir(dir: string): Promise<void> {
  try {
    const h = await open(dir, 'r');
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  } catch {
    // Some file systems refuse fsync on directories; the rename is still atomic.
  }
}

/** Write bytes only if the file does not already hold exactly them. Returns true if written. */
export async function writeIfChanged(file: string, data: string | Uint8Array): Promise<boolean> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
  try {
    const old = await readFile(file);
    if (old.equals(bytes)) return false;
  } catch {
    // missing: write it
  }
  await writeFileAtomic(file, bytes);
  return true;
}

/** Hex sha256 of a buffer or string. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Hex sha256 of a file's bytes, streamed. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Read a text file or throw a StimkitError naming it. */
export async function readTextFile(file: string, code = 'E_READ'): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw StimkitError.fromProblem(
      {
        code,
        file,
        message: e.code === 'ENOENT' ? 'file not found' : `cannot read file (${e.code ?? e.message})`,
        fix: e.code === 'ENOENT' ? 'check the path' : 'check the permissions',
      },
      err,
    );
  }
}

/** True if the path exists. */
export async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/** A path relative to `from`, with forward slashes, for recording in artifacts. */
export function relPosix(from: string, to: string): string {
  const r = path.relative(from, to) || '.';
  return r.split(path.sep).join('/');
}
