/**
 * Listing a bag's files and hashing them quickly: small files are read whole, large ones
 * streamed, several at a time.
 */
import { lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import pMap from 'p-map';
import { hashFile } from './fsio.js';

/** A file found under the bag root: its bag-relative posix path, size, and whether it is regular. */
export interface FoundFile {
  path: string;
  size: number;
  regular: boolean;
}

/** Every file and symbolic link under `root` (not following links), sorted by path. */
export async function listFiles(root: string): Promise<FoundFile[]> {
  const out: FoundFile[] = [];
  async function walk(rel: string): Promise<void> {
    const entries = await readdir(path.join(root, rel), { withFileTypes: true });
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(r);
      else {
        const st = await lstat(path.join(root, r));
        out.push({ path: r, size: st.size, regular: st.isFile() });
      }
    }
  }
  await walk('');
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Hex sha256 of a file, or null when there is no readable file (small files are read whole). */
export async function sha256OrNull(file: string): Promise<string | null> {
  try {
    const st = await stat(file);
    return st.isFile() ? await hashFile(file, 'sha256', st.size) : null;
  } catch {
    return null;
  }
}

/** Digests of many files, `concurrency` at a time; a file that cannot be read gets null. */
export async function hashFiles(
  root: string,
  files: Array<{ path: string; size?: number }>,
  algorithm: string,
  concurrency = 4,
): Promise<Map<string, string | null>> {
  const digests = await pMap(
    files,
    async (f) => {
      try {
        return [f.path, await hashFile(path.join(root, f.path), algorithm, f.size)] as const;
      } catch {
        return [f.path, null] as const;
      }
    },
    { concurrency },
  );
  return new Map(digests);
}
