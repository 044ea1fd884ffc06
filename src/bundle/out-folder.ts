/**
 * The `--out` folder of a bundle: when it may be replaced, and the stale temporary folders an
 * interrupted run leaves next to it.
 *
 * A folder is replaced only when it is provably a bag stimkit wrote: `bagit.txt` is exactly the
 * declaration we write, `data/bundle.json` is a stimkit bundle header, and it holds nothing but
 * the bag's own files (the four tag files, and under `data/` only files its payload manifest
 * lists). An empty folder is fine too. Anything else is refused, so that a mistyped `--out` never
 * deletes somebody's files.
 */
import { lstat, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { BAGIT_TXT, parseManifest } from './bagit.js';
import { BUNDLE_FORMAT } from './format.js';

/** The top-level files a stimkit bag consists of (besides `data/`). */
const TAG_FILES = new Set([
  'bagit.txt',
  'bag-info.txt',
  'manifest-sha256.txt',
  'tagmanifest-sha256.txt',
]);

interface Found {
  rel: string;
  kind: 'file' | 'dir' | 'other';
}

async function walk(root: string): Promise<Found[]> {
  const out: Found[] = [];
  async function go(rel: string): Promise<void> {
    for (const e of await readdir(path.join(root, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        out.push({ rel: r, kind: 'dir' });
        await go(r);
      } else out.push({ rel: r, kind: e.isFile() ? 'file' : 'other' });
    }
  }
  await go('');
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

async function readOrNull(file: string): Promise<string | null> {
  try {
    return (await lstat(file)).isFile() ? await readFile(file, 'utf8') : null;
  } catch {
    return null;
  }
}

/** Why `dir` is not a bag stimkit wrote (the offending path and the reason), or null when it is. */
async function notOurBag(
  dir: string,
  found: Found[],
): Promise<{ rel: string; reason: string } | null> {
  if ((await readOrNull(path.join(dir, 'bagit.txt'))) !== BAGIT_TXT) {
    // Name the first file a stimkit bag would not hold (what the user most likely left there).
    const stray = found.find(
      (f) => f.kind !== 'dir' && !TAG_FILES.has(f.rel) && !f.rel.startsWith('data/'),
    );
    if (stray) return { rel: stray.rel, reason: 'not a file of a stimkit bag' };
    return { rel: 'bagit.txt', reason: 'missing, or not the BagIt declaration stimkit writes' };
  }
  const header = await readOrNull(path.join(dir, 'data', 'bundle.json'));
  let format: unknown;
  try {
    format = header === null ? undefined : (JSON.parse(header) as { format?: unknown }).format;
  } catch {
    format = undefined;
  }
  if (format !== BUNDLE_FORMAT)
    return { rel: 'data/bundle.json', reason: `missing, or not a ${BUNDLE_FORMAT} header` };
  const manifest = await readOrNull(path.join(dir, 'manifest-sha256.txt'));
  if (manifest === null) return { rel: 'manifest-sha256.txt', reason: 'missing' };
  const listed = new Set(
    parseManifest(manifest)
      .lines.map((l) => l.path)
      .filter((p) => p.startsWith('data/')),
  );
  const dirs = new Set<string>(['data']);
  for (const p of listed) {
    const parts = p.split('/');
    for (let i = 2; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  for (const f of found) {
    if (f.kind === 'other') return { rel: f.rel, reason: 'not a plain file or folder' };
    if (f.kind === 'dir' && !dirs.has(f.rel))
      return { rel: f.rel, reason: 'a folder no manifest line lies in' };
    if (
      f.kind === 'file' &&
      !(f.rel.startsWith('data/') ? listed.has(f.rel) : TAG_FILES.has(f.rel))
    ) {
      return {
        rel: f.rel,
        reason: f.rel.startsWith('data/')
          ? 'not listed in manifest-sha256.txt'
          : 'not a tag file stimkit writes',
      };
    }
  }
  return null;
}

/**
 * Check the `--out` folder before any work is done: `'absent'` (it will be created) or
 * `'replace'` (empty, or a bag stimkit wrote). Throws E_BUNDLE_OUT when a file is in the way, and
 * E_BUNDLE_OUT_NOT_A_BAG naming the folder and the first unexpected file otherwise.
 */
export async function checkOutFolder(out: string): Promise<'absent' | 'replace'> {
  let st;
  try {
    st = await stat(out);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw StimkitError.fromProblem(
      {
        code: 'E_BUNDLE_OUT',
        file: out,
        message: `cannot inspect the output path (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
        fix: 'choose an empty or new folder for --out',
      },
      err,
    );
  }
  if (!st.isDirectory()) {
    throw StimkitError.fromProblem({
      code: 'E_BUNDLE_OUT',
      file: out,
      message: 'the output path is a file, not a folder',
      fix: 'choose an empty or new folder for --out',
    });
  }
  let found: Found[];
  try {
    found = await walk(out);
  } catch (err) {
    throw StimkitError.fromProblem(
      {
        code: 'E_BUNDLE_OUT_NOT_A_BAG',
        file: out,
        message: `cannot list the output folder (${(err as NodeJS.ErrnoException).code ?? String(err)}); refusing to replace it`,
        fix: 'choose an empty or new folder for --out',
      },
      err,
    );
  }
  if (found.length === 0) return 'replace';
  const why = await notOurBag(out, found);
  if (why === null) return 'replace';
  throw StimkitError.fromProblem({
    code: 'E_BUNDLE_OUT_NOT_A_BAG',
    file: out,
    message: `the output folder is not empty and not a bag stimkit wrote (${why.rel}: ${why.reason}); refusing to replace it`,
    fix: 'choose an empty or new folder for --out (only a bag stimkit wrote, holding nothing else, is replaced)',
  });
}

/** The name of a temporary sibling folder of `out` for this process. */
export function tempName(out: string, suffix: string): string {
  return path.join(path.dirname(out), `.${path.basename(out)}.tmp-${process.pid}-${suffix}`);
}

function running(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Remove the temporary folders an interrupted bundle of `out` left: siblings named exactly
 * `.<name>.tmp-<pid>-<8 hex>` or that plus `-old`, whose process is no longer running. Returns
 * the names removed.
 */
export async function sweepStaleTemps(out: string): Promise<string[]> {
  const parent = path.dirname(out);
  const prefix = `.${path.basename(out)}.tmp-`;
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names.sort()) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)-[0-9a-f]{8}(-old)?$/.exec(name.slice(prefix.length));
    if (!m || running(Number(m[1]))) continue;
    const full = path.join(parent, name);
    const st = await lstat(full).catch(() => null);
    if (!st?.isDirectory()) continue;
    await rm(full, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
