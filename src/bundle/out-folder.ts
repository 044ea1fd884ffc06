/**
 * The `--out` folder of a bundle: when it may be replaced (the swap itself is core/out-folder.ts).
 *
 * A folder is replaced only when it is provably a bag stimkit wrote: `bagit.txt` is exactly the
 * declaration we write, `data/bundle.json` is a stimkit bundle header, and it holds nothing but
 * the bag's own files (the four tag files, and under `data/` only files its payload manifest
 * lists). An empty folder is fine too. Anything else is refused, so that a mistyped `--out` never
 * deletes somebody's files.
 */
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  checkOutFolder as checkFolder,
  type Foreign,
  type Found,
  type OutFolderSpec,
} from '../core/out-folder.js';
import { BAGIT_TXT, parseManifest } from './bagit.js';
import { BUNDLE_FORMAT } from './format.js';

/** The top-level files a stimkit bag consists of (besides `data/`). */
const TAG_FILES = new Set([
  'bagit.txt',
  'bag-info.txt',
  'manifest-sha256.txt',
  'tagmanifest-sha256.txt',
]);

async function readOrNull(file: string): Promise<string | null> {
  try {
    return (await lstat(file)).isFile() ? await readFile(file, 'utf8') : null;
  } catch {
    return null;
  }
}

/** Why `dir` is not a bag stimkit wrote (the offending path and the reason), or null when it is. */
async function notOurBag(dir: string, found: Found[]): Promise<Foreign | null> {
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

/** How a bag stimkit wrote is recognised (see the module comment). */
const BAG_FOLDER: OutFolderSpec = {
  command: 'bundle',
  what: 'a bag stimkit wrote',
  codePath: 'E_BUNDLE_OUT',
  codeForeign: 'E_BUNDLE_OUT_NOT_A_BAG',
  foreign: notOurBag,
};

/**
 * Check the `--out` folder before any work is done: `'absent'` (it will be created) or
 * `'replace'` (empty, or a bag stimkit wrote). Throws E_BUNDLE_OUT when a file is in the way, and
 * E_BUNDLE_OUT_NOT_A_BAG naming the folder and the first unexpected file otherwise.
 */
export function checkOutFolder(out: string): Promise<'absent' | 'replace'> {
  return checkFolder(out, BAG_FOLDER);
}
