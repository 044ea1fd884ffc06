/**
 * Writing a BagIt 1.0 bag atomically: the whole bag is built in a hidden sibling folder, every
 * payload file is hashed as it is written (no second read), the manifests are sorted, and the
 * folder is renamed into place last. An interrupted bundle never leaves a bag that looks complete.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import pMap from 'p-map';
import { StimkitError } from '../core/errors.js';
import { ensureFolder, sha256 } from '../core/fsio.js';
import {
  BAGIT_TXT,
  bagSize,
  formatBagInfo,
  formatManifest,
  payloadOxum,
  type ManifestLine,
} from './bagit.js';
import { swapIn, sweepStaleTemps, tempName } from '../core/out-folder.js';
import { checkOutFolder } from './out-folder.js';

export { checkOutFolder } from './out-folder.js';

/** One payload file: its path under `data/` and either its bytes or a file to copy. */
export type PayloadFile =
  | { path: string; bytes: string | Uint8Array }
  | {
      path: string;
      source: string;
      /** The digest the source must have (checked while copying). */ sha256?: string;
    };

/** What was written. */
export interface WrittenBag {
  dir: string;
  /** sha256 of `manifest-sha256.txt`: the bundle digest. */
  digest: string;
  octets: number;
  files: number;
  manifest: ManifestLine[];
}

/** Write and fsync one file (the folder rename is the commit point, so the bytes must be on disk first). */
async function writeSynced(file: string, bytes: string | Uint8Array): Promise<void> {
  const handle = await open(file, 'w');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const SAFE_PATH = /^(?!\/)(?!.*(^|\/)\.\.?(\/|$))[^\0\\]+$/;

/**
 * Write `payload` as a bag at `out` with the given `bag-info.txt` fields (Payload-Oxum and
 * Bag-Size are added). `out` must not exist, be empty, or hold a bag stimkit wrote and nothing
 * else (which is replaced; see `checkOutFolder`). Stale temporary folders of an interrupted earlier
 * run are removed first.
 */
export async function writeBag(
  out: string,
  payload: PayloadFile[],
  info: Array<[string, string]>,
  options: { concurrency?: number } = {},
): Promise<WrittenBag> {
  const dir = path.resolve(out);
  const seen = new Set<string>();
  for (const f of payload) {
    if (!SAFE_PATH.test(f.path)) throw new Error(`unsafe payload path ${JSON.stringify(f.path)}`);
    if (seen.has(f.path)) throw new Error(`payload path ${f.path} given twice`);
    seen.add(f.path);
  }
  await ensureFolder(path.dirname(dir));
  await sweepStaleTemps(dir);
  const mode = await checkOutFolder(dir);
  const tmp = tempName(dir, randomBytes(4).toString('hex'));
  try {
    const dirs = new Set(payload.map((f) => path.posix.dirname(`data/${f.path}`)));
    for (const d of [...dirs].sort()) await mkdir(path.join(tmp, d), { recursive: true });
    const manifest = await pMap(
      payload,
      async (f): Promise<ManifestLine & { octets: number }> => {
        const bytes =
          'bytes' in f
            ? typeof f.bytes === 'string'
              ? Buffer.from(f.bytes, 'utf8')
              : f.bytes
            : await readFile(f.source);
        const digest = sha256(bytes);
        if ('source' in f && f.sha256 && f.sha256 !== digest) {
          throw StimkitError.fromProblem({
            code: 'E_BUNDLE_SOURCE_CHANGED',
            file: f.source,
            message: 'the file changed since its lock recorded it',
            expected: f.sha256,
            got: digest,
            fix: 'rerun the stage that wrote it (stimkit variants / ingest), or restore the file',
          });
        }
        await writeSynced(path.join(tmp, 'data', f.path), bytes);
        return { path: `data/${f.path}`, digest, octets: bytes.length };
      },
      { concurrency: options.concurrency ?? 8 },
    );
    const octets = manifest.reduce((s, m) => s + m.octets, 0);
    const manifestText = formatManifest(manifest);
    const infoText = formatBagInfo([
      ...info,
      ['Payload-Oxum', payloadOxum(octets, manifest.length)],
      ['Bag-Size', bagSize(octets)],
    ]);
    const tags: Array<[string, string]> = [
      ['bagit.txt', BAGIT_TXT],
      ['bag-info.txt', infoText],
      ['manifest-sha256.txt', manifestText],
    ];
    for (const [name, text] of tags) await writeSynced(path.join(tmp, name), text);
    await writeSynced(
      path.join(tmp, 'tagmanifest-sha256.txt'),
      formatManifest(tags.map(([name, text]) => ({ path: name, digest: sha256(text) }))),
    );
    await swapIn(tmp, dir, mode);
    return {
      dir,
      digest: sha256(manifestText),
      octets,
      files: manifest.length,
      manifest: manifest.map(({ path: p, digest }) => ({ path: p, digest })),
    };
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
}
