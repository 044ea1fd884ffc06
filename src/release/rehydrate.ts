/**
 * `stimkit rehydrate <release> --images DIR`: rebuild the images a release withheld (their
 * licences do not allow redistribution) from the user's own copy of the source images. Each
 * source is found in DIR by its sha256 (at the entry's file name first, else anywhere under DIR),
 * put through the variants stage (`runVariants`, the same code that made the sealed bundle's
 * images) with the bundle's recipe, and every output is checked against the sha256 the release
 * records before it is written to `images/`. A mismatch is refused, naming the file, the expected
 * and the got sha256 (E_REHYDRATE_MISMATCH). `release.json`'s file list then names the images
 * written, with their bytes and sha256.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { StimkitError } from '../core/errors.js';
import { ensureFolder, sha256, writeFileAtomic } from '../core/fsio.js';
import { artifactJson } from '../core/json.js';
import { listFiles, sha256OrNull } from '../core/walk.js';
import { Recipe } from '../variants/recipe.js';
import { runVariants } from '../variants/run.js';
import type { VariantCode } from '../variants/types.js';
import { ReleaseHeader, type WithheldEntry } from './format.js';

/** What a rehydration did. */
export interface RehydrateResult {
  release: string;
  entries: number;
  images: Array<{ entry: string; code: string; file: string; sha256: string }>;
}

async function readHeader(release: string): Promise<ReleaseHeader> {
  const file = path.join(release, 'release.json');
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw StimkitError.fromProblem(
      {
        code: 'E_REHYDRATE_RELEASE',
        file,
        message: 'no readable release.json: not a release folder',
        fix: 'pass the folder stimkit release wrote',
      },
      err,
    );
  }
  const parsed = ReleaseHeader.safeParse(value);
  if (!parsed.success)
    throw StimkitError.fromProblem({
      code: 'E_REHYDRATE_RELEASE',
      file,
      field: parsed.error.issues[0]!.path.join('.'),
      message: `not a stimkit.release header: ${parsed.error.issues[0]!.message}`,
      fix: 'pass the folder stimkit release wrote, with this version of stimkit',
    });
  return parsed.data;
}

/** Find each withheld entry's source image in `dir` by its sha256. */
async function findSources(
  dir: string,
  withheld: readonly WithheldEntry[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let all: Map<string, string> | null = null;
  for (const w of withheld) {
    const named = path.join(dir, w.source.file);
    if ((await sha256OrNull(named)) === w.source.sha256) {
      found.set(w.entry, w.source.file);
      continue;
    }
    if (all === null) {
      all = new Map();
      for (const f of await listFiles(dir))
        if (f.regular) {
          const sha = await sha256OrNull(path.join(dir, f.path));
          if (sha !== null && !all.has(sha)) all.set(sha, f.path);
        }
    }
    const hit = all.get(w.source.sha256);
    if (hit === undefined)
      throw StimkitError.fromProblem({
        code: 'E_REHYDRATE_SOURCE',
        file: named,
        entry: w.entry,
        message: `no file under --images has the source image's sha256 (looked for ${w.source.file} and every file)`,
        expected: w.source.sha256,
        got: (await sha256OrNull(named)) ?? 'no such file',
        fix: `put your copy of the source image (${w.source.url ?? 'see the stimuli table'}) under --images; it must be byte-identical to the one the study used`,
      });
    found.set(w.entry, hit);
  }
  return found;
}

/** The entries manifest of the withheld entries, pointing at the user's copies. */
function manifestOf(
  header: ReleaseHeader,
  sources: ReadonlyMap<string, string>,
  imagesDir: string,
) {
  return {
    format: 'stimkit.entries',
    version: 1,
    corpus: 'rehydrate',
    languages: header.params.languages,
    images: imagesDir,
    entries: header.withheld.map((w) => {
      // two withheld entries may show one image (image.same_as in the study): said so again here
      const first = header.withheld.find((o) => o.source.sha256 === w.source.sha256)!;
      const image = {
        file: sources.get(w.entry)!,
        sha256: w.source.sha256,
        ...(first.entry !== w.entry ? { same_as: first.entry } : {}),
      };
      return { ...w.record, image };
    }),
  };
}

/** Check every rebuilt image against the release and write it to `images/`. */
async function checkAndWrite(
  release: string,
  header: ReleaseHeader,
  lock: Awaited<ReturnType<typeof runVariants>>,
): Promise<RehydrateResult['images']> {
  const written: RehydrateResult['images'] = [];
  await ensureFolder(path.join(release, 'images'));
  for (const w of header.withheld)
    for (const img of w.images) {
      const rec = lock.lock.entries
        .find((e) => e.id === w.entry)
        ?.variants.find((v) => v.code === img.code);
      const file = `images/${img.sha256}.png`;
      const bytes = rec?.file ? await readFile(path.join(lock.outDir, rec.file)) : null;
      const got =
        bytes === null ? `not made (${rec?.error?.message ?? 'no record'})` : sha256(bytes);
      if (bytes === null || got !== img.sha256)
        throw StimkitError.fromProblem({
          code: 'E_REHYDRATE_MISMATCH',
          file: path.join(release, file),
          entry: w.entry,
          message: `the rebuilt ${img.code} of ${w.entry} is not the image the study used`,
          expected: img.sha256,
          got,
          fix: 'rebuild with the stimkit version and libraries the release names (release.json tool, the recipe), from the byte-identical source image',
        });
      const target = path.join(release, file);
      await writeFileAtomic(target, bytes);
      written.push({ entry: w.entry, code: img.code, file, sha256: img.sha256 });
    }
  return written;
}

/**
 * Add the images written to `release.json`'s file list (each once, in file order, with its bytes
 * and sha256), so the folder's header lists every file it holds; written atomically.
 */
async function listWritten(
  release: string,
  header: ReleaseHeader,
  written: RehydrateResult['images'],
): Promise<void> {
  const files = new Map(header.files.map((f) => [f.file, f]));
  for (const w of written) {
    const bytes = (await stat(path.join(release, w.file))).size;
    files.set(w.file, { file: w.file, bytes, sha256: w.sha256 });
  }
  const listed: ReleaseHeader = {
    ...header,
    files: [...files.values()].sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : 0)),
  };
  await writeFileAtomic(path.join(release, 'release.json'), artifactJson(listed));
}

/**
 * Rebuild a release's withheld images from the user's copies under `imagesDir`.
 *
 * @example
 * const r = await rehydrate('release', 'my-archive-copies'); // release/images/<sha256>.png
 */
export async function rehydrate(release: string, imagesDir: string): Promise<RehydrateResult> {
  const header = await readHeader(release);
  if (header.withheld.length === 0) return { release, entries: 0, images: [] };
  const images = path.resolve(imagesDir);
  const sources = await findSources(images, header.withheld);
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'stimkit-rehydrate-'));
  try {
    const manifest = path.join(tmp, 'rehydrate.entries.yaml');
    await writeFile(manifest, stringify(manifestOf(header, sources, images)));
    const entryCodes = Object.fromEntries(
      header.withheld.map((w) => [w.entry, w.images.map((i) => i.code as VariantCode)]),
    );
    const lock = await runVariants(manifest, {
      out: path.join(tmp, 'variants'),
      recipe: Recipe.parse(header.recipe),
      entryCodes,
      contactSheet: false,
      jobs: 1,
    });
    const written = await checkAndWrite(release, header, lock);
    await listWritten(release, header, written);
    return { release, entries: header.withheld.length, images: written };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
