/**
 * Two friendlier image-path problems of ingest: a missing images folder is reported once, at the
 * manifest's `images` field (or the `--images` flag), instead of once per entry; and a missing image
 * names the closest file in its folder (`rocket.jpeg` → `rocket.jpg`).
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Problem } from '../core/errors.js';
import { relPosix } from '../core/fsio.js';
import { isInside } from '../core/safe-path.js';
import { closest } from '../core/suggest.js';

/** One problem when the images root is not a folder, else null. */
export async function imagesRootProblem(
  root: string,
  where: {
    file: string;
    line?: number;
    fromFlag: boolean;
    manifestDir: string;
    allowMissing?: boolean;
  },
): Promise<Problem | null> {
  const st = await stat(root).catch(() => null);
  if (st?.isDirectory() || (!st && where.allowMissing)) return null;
  const shown = relPosix(process.cwd(), root);
  return {
    code: 'E_INGEST_IMAGES_ROOT',
    severity: 'error',
    file: where.fromFlag ? undefined : where.file,
    line: where.fromFlag ? undefined : where.line,
    field: where.fromFlag ? '--images' : 'images',
    message: st
      ? `the images root ${shown} is a file, not a folder`
      : `the images folder ${shown} does not exist, so no image can be read`,
    fix: where.fromFlag
      ? 'pass the folder that holds the images to --images'
      : `set images: to the folder that holds the images, relative to the manifest's folder (${relPosix(process.cwd(), where.manifestDir) || '.'}), or pass --images DIR`,
  };
}

/**
 * The path (relative to `root`, POSIX) of the file in `file`'s folder whose name is closest to
 * `file`'s, when one is close enough to be a likely typo; undefined otherwise.
 */
export async function closestImage(root: string, file: string): Promise<string | undefined> {
  const dir = path.dirname(file);
  if (!isInside(path.resolve(root), dir)) return undefined;
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch {
    return undefined;
  }
  const base = path.basename(file);
  // The same name in another Unicode normalization first (macOS writes names decomposed, NFD:
  // they print the same and differ in bytes); then the same name with another extension
  // (rocket.jpeg → rocket.jpg); then spelling.
  const nfc = base.normalize('NFC');
  const normalized = names.find((n) => n !== base && n.normalize('NFC') === nfc);
  if (normalized !== undefined) return relPosix(path.resolve(root), path.join(dir, normalized));
  const stem = base.replace(/\.[^.]*$/, '');
  const sameStem = names.find(
    (n) => n.replace(/\.[^.]*$/, '').toLowerCase() === stem.toLowerCase(),
  );
  const guess = sameStem ?? closest(base, names);
  return guess === undefined ? undefined : relPosix(path.resolve(root), path.join(dir, guess));
}
