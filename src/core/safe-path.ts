/**
 * Resolving user-given file paths inside a root folder, refusing any that escape it: `..`
 * segments, absolute paths elsewhere, and symbolic links whose target lies outside.
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The outcome of resolving a path under a root. `path` is the lexical path (root joined with the
 * file as written, symbolic links not resolved): record and open that one, so that artifacts do
 * not depend on where links point on this machine.
 */
export type SafePath =
  | { ok: true; path: string }
  | {
      ok: false;
      reason: 'escapes' | 'symlink-escapes' | 'missing' | 'not-a-file';
      path: string;
      detail: string;
    };

/** True if `p` is `root` or lies below it (`..cat.png` is a name, not a parent). */
export function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  if (rel === '') return true;
  if (path.isAbsolute(rel)) return false;
  return rel !== '..' && !rel.startsWith(`..${path.sep}`);
}

/**
 * Resolve `file` (relative to `root`, or absolute) and check that it, and whatever it links to,
 * stays inside `root` and is a regular file.
 */
export async function resolveInside(root: string, file: string): Promise<SafePath> {
  const absRoot = path.resolve(root);
  const lexical = path.resolve(absRoot, file);
  if (!isInside(absRoot, lexical)) {
    return {
      ok: false,
      reason: 'escapes',
      path: lexical,
      detail: `"${file}" points outside the images root ${absRoot}`,
    };
  }
  let realRoot: string;
  try {
    realRoot = await realpath(absRoot);
  } catch {
    return {
      ok: false,
      reason: 'missing',
      path: lexical,
      detail: `the images root ${absRoot} does not exist`,
    };
  }
  let real: string;
  try {
    real = await realpath(lexical);
  } catch {
    return { ok: false, reason: 'missing', path: lexical, detail: `no file at ${lexical}` };
  }
  if (!isInside(realRoot, real)) {
    return {
      ok: false,
      reason: 'symlink-escapes',
      path: lexical,
      detail: `"${file}" is a symbolic link (or under one) that leads outside the images root, to ${real}`,
    };
  }
  if (!(await stat(real)).isFile()) {
    return {
      ok: false,
      reason: 'not-a-file',
      path: lexical,
      detail: `"${file}" is a folder or a special file, not an image file`,
    };
  }
  return { ok: true, path: lexical };
}
