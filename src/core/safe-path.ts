/**
 * Resolving user-given file paths inside a root folder, refusing any that escape it: `..`
 * segments, absolute paths elsewhere, and symbolic links whose target lies outside.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';

/** The outcome of resolving a path under a root. */
export type SafePath =
  | { ok: true; path: string }
  | { ok: false; reason: 'escapes' | 'symlink-escapes' | 'missing'; path: string; detail: string };

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Resolve `file` (relative to `root`, or absolute) and check that it, and whatever it links to,
 * stays inside `root`. `root` should be absolute.
 */
export async function resolveInside(root: string, file: string): Promise<SafePath> {
  const lexical = path.resolve(root, file);
  if (!inside(root, lexical)) {
    return { ok: false, reason: 'escapes', path: lexical, detail: `"${file}" points outside the images root ${root}` };
  }
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return { ok: false, reason: 'missing', path: lexical, detail: `the images root ${root} does not exist` };
  }
  let real: string;
  try {
    real = await realpath(lexical);
  } catch {
    return { ok: false, reason: 'missing', path: lexical, detail: `no file at ${lexical}` };
  }
  if (!inside(realRoot, real)) {
    return {
      ok: false,
      reason: 'symlink-escapes',
      path: lexical,
      detail: `"${file}" is a symbolic link (or under one) that leads outside the images root, to ${real}`,
    };
  }
  return { ok: true, path: real };
}
