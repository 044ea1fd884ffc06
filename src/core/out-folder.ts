/**
 * Output folders that are replaced whole: a command that writes several files (score, report,
 * review, bundle) builds them in a hidden sibling folder `.<name>.tmp-<pid>-<8 hex>` and swaps it
 * in only when every file is written. A failure (a corrupt input, a full disk, a kill) leaves the
 * previous folder exactly as it was.
 *
 * An existing folder is replaced only when it is provably one the command wrote (its `spec` says
 * how to tell); anything else is refused before any work is done, so that a mistyped `--out`
 * never deletes somebody's files. The swap is two renames; a crash between them leaves the old
 * folder as `…-old`, which the next run puts back (`sweepStaleTemps`).
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { StimkitError } from './errors.js';
import { ensureFolder, syncDir } from './fsio.js';

/** One entry of a folder, relative to it with forward slashes. */
export interface Found {
  rel: string;
  kind: 'file' | 'dir' | 'other';
}

/** Why a folder is not one a command wrote: the offending path and the reason. */
export interface Foreign {
  rel: string;
  reason: string;
}

/** How a command recognises an output folder it wrote. */
export interface OutFolderSpec {
  /** The command, for messages (`score`, `report`). */
  command: string;
  /** What a replaceable folder is, for messages (default `one stimkit <command> wrote`). */
  what?: string;
  /** Error code of a path that is not a folder (default `E_OUT_NOT_A_FOLDER`). */
  codePath?: string;
  /** Error code of a folder that is not ours (default `E_OUT_NOT_OURS`). */
  codeForeign?: string;
  /** The first entry that shows `dir` is not the command's (null: it is). `found` is sorted. */
  foreign: (dir: string, found: Found[]) => Promise<Foreign | null>;
}

/** Files a file manager leaves in any folder; they never make a folder foreign. */
const LITTER = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini']);

/** Every entry under `root`, sorted (files a file manager leaves are left out). */
async function walkFolder(root: string): Promise<Found[]> {
  const out: Found[] = [];
  async function go(rel: string): Promise<void> {
    for (const e of await readdir(path.join(root, rel), { withFileTypes: true })) {
      if (LITTER.has(e.name)) continue;
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

function problem(code: string, out: string, message: string, cause?: unknown): StimkitError {
  return StimkitError.fromProblem(
    { code, file: out, message, fix: 'choose an empty or new folder for --out' },
    cause,
  );
}

/**
 * Check the `--out` folder before any work is done: `'absent'` (it will be created) or
 * `'replace'` (empty, or one the command wrote). Throws naming the first foreign entry otherwise.
 */
export async function checkOutFolder(
  out: string,
  spec: OutFolderSpec,
): Promise<'absent' | 'replace'> {
  const codePath = spec.codePath ?? 'E_OUT_NOT_A_FOLDER';
  const codeForeign = spec.codeForeign ?? 'E_OUT_NOT_OURS';
  let st;
  try {
    st = await stat(out);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    const why = (err as NodeJS.ErrnoException).code ?? String(err);
    throw problem(codePath, out, `cannot inspect the output path (${why})`, err);
  }
  if (!st.isDirectory()) throw problem(codePath, out, 'the output path is a file, not a folder');
  let found: Found[];
  try {
    found = await walkFolder(out);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? String(err);
    throw problem(
      codeForeign,
      out,
      `cannot list the output folder (${why}); refusing to replace it`,
      err,
    );
  }
  if (found.length === 0) return 'replace';
  const why = await spec.foreign(out, found);
  if (why === null) return 'replace';
  const what = spec.what ?? `one stimkit ${spec.command} wrote`;
  throw StimkitError.fromProblem({
    code: codeForeign,
    file: out,
    message: `the output folder is not empty and not ${what} (${why.rel}: ${why.reason}); refusing to replace it`,
    fix: `choose an empty or new folder for --out (only ${what}, holding nothing else, is replaced)`,
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
 * Clean up after an interrupted run writing `out`: siblings named exactly
 * `.<name>.tmp-<pid>-<8 hex>` (an unfinished build) are removed, and `…-old` (the previous folder,
 * moved aside by a swap that did not finish) is put back when `out` is missing, else removed;
 * only of processes no longer running. Returns the names handled.
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
  const handled: string[] = [];
  // `-old` names sort after their build's name, so a restore comes after that build is removed
  for (const name of names.sort()) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)-[0-9a-f]{8}(-old)?$/.exec(name.slice(prefix.length));
    if (!m || running(Number(m[1]))) continue;
    const full = path.join(parent, name);
    const st = await lstat(full).catch(() => null);
    if (!st?.isDirectory()) continue;
    if (m[2] && !(await lstat(out).catch(() => null))) await rename(full, out);
    else await rm(full, { recursive: true, force: true });
    handled.push(name);
  }
  return handled;
}

/** Put the finished `tmp` in the place of `out` (`mode` from `checkOutFolder`). */
export async function swapIn(tmp: string, out: string, mode: 'absent' | 'replace'): Promise<void> {
  await syncDir(tmp);
  if (mode === 'replace') {
    const old = `${tmp}-old`;
    await rename(out, old);
    try {
      await rename(tmp, out);
    } catch (err) {
      await rename(old, out);
      throw err;
    }
    await syncDir(path.dirname(out));
    await rm(old, { recursive: true, force: true });
  } else {
    await rename(tmp, out);
    await syncDir(path.dirname(out));
  }
}

/**
 * Build a command's output folder at `out` whole: check it may be replaced, clean up after an
 * interrupted earlier run, let `build` write every file into a fresh temporary sibling folder,
 * then swap that in. When `build` throws, the temporary folder is removed and `out` is untouched.
 *
 * @example
 * await writeOutFolder('scores', spec, async (tmp) => {
 *   await writeFileAtomic(path.join(tmp, 'a.csv'), text);
 * });
 */
export async function writeOutFolder<T>(
  out: string,
  spec: OutFolderSpec,
  build: (tmp: string) => Promise<T>,
): Promise<T> {
  let dir = path.resolve(out);
  // a symbolic link to a folder: replace the folder it points to, and keep the link
  if ((await lstat(dir).catch(() => null))?.isSymbolicLink())
    dir = await realpath(dir).catch(() => dir);
  await ensureFolder(path.dirname(dir));
  await sweepStaleTemps(dir);
  const mode = await checkOutFolder(dir, spec);
  const tmp = tempName(dir, randomBytes(4).toString('hex'));
  try {
    await mkdir(tmp);
    const result = await build(tmp);
    await swapIn(tmp, dir, mode);
    return result;
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
}

/** What an output folder, recognised by its header file (`score.json`), may hold. */
export interface HeaderedFolder {
  command: string;
  /** The header file and its `format` field: a non-empty folder without it is not the command's. */
  header: { file: string; format: string };
  /** Top-level files the command writes (or wrote in an earlier version), besides the header. */
  names: readonly string[];
  /** Subfolders whose every file is the command's, when the header is its. */
  dirs?: readonly string[];
}

/**
 * The spec of a folder recognised by its header: empty, or a header of the right format beside
 * files among `names`, the files it lists (`files[].file`) and everything under `dirs`. A folder
 * holding only files the command would write, but no header, is somebody else's (their own
 * `index.html`).
 */
export function headeredFolder(o: HeaderedFolder): OutFolderSpec {
  return {
    command: o.command,
    foreign: async (dir, found) => {
      const header = await readHeader(path.join(dir, o.header.file));
      const ours = header?.format === o.header.format;
      const listed = new Set(ours ? listedFiles(header) : []);
      const names = new Set([o.header.file, ...o.names]);
      const dirs = ours ? (o.dirs ?? []) : [];
      const inDir = (rel: string) => dirs.some((d) => rel === d || rel.startsWith(`${d}/`));
      for (const f of found) {
        if (f.kind === 'other') return { rel: f.rel, reason: 'not a plain file or folder' };
        if (inDir(f.rel)) continue;
        if (f.kind === 'dir') {
          if ([...listed].some((l) => l.startsWith(`${f.rel}/`))) continue;
          return { rel: f.rel, reason: `a folder stimkit ${o.command} does not write` };
        }
        if (!names.has(f.rel) && !listed.has(f.rel))
          return { rel: f.rel, reason: `a file stimkit ${o.command} does not write` };
      }
      if (ours) return null;
      return found.some((f) => f.rel === o.header.file)
        ? { rel: o.header.file, reason: `not a ${o.header.format} header` }
        : { rel: o.header.file, reason: `missing (stimkit ${o.command} writes it)` };
    },
  };
}

async function readHeader(file: string): Promise<{ format?: unknown; files?: unknown } | null> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as unknown;
    return value && typeof value === 'object' ? value : null;
  } catch {
    return null;
  }
}

function listedFiles(header: { files?: unknown } | null): string[] {
  if (!Array.isArray(header?.files)) return [];
  return header.files.flatMap((f: unknown) =>
    f && typeof f === 'object' && typeof (f as { file?: unknown }).file === 'string'
      ? [(f as { file: string }).file]
      : [],
  );
}
