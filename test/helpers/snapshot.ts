/** Every file under a folder with its bytes, to check a folder is left exactly as it was. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** `rel path → bytes (base64)` of every file under `dir`, sorted by path. */
export async function folderBytes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
  for (const f of files) out[f] = (await readFile(path.join(dir, f))).toString('base64');
  return out;
}

/** The names next to `dir` (its siblings), to check no temporary folder is left behind. */
export async function siblings(dir: string): Promise<string[]> {
  return (await readdir(path.dirname(dir))).sort();
}
