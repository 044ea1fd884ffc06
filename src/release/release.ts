/**
 * `stimkit release --bundle B --ledger L --scores S [--labels DIR] [--meta release.yaml] --out DIR`:
 * a dataset release of one sealed bundle's run. Writes the four record sets (stimuli, responses,
 * scores, ratings) as CSV and Parquet under `data/`, the images whose licences allow it under
 * `images/`, `croissant.json` (Croissant 1.1 + RAI 1.0), the Hugging Face dataset card
 * (`README.md`), `LICENSES.md` and `release.json` (written last). An image withheld by its
 * licence ships neither itself nor any variant: the release lists its source, sha256, perceptual
 * hash and recipe, and `stimkit rehydrate` rebuilds it. Same inputs → same bytes (the date comes
 * from release.yaml, not the clock).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { checkScoresOfRun } from '../score/ledger-match.js';
import sharp from '../core/sharp.js';
import { artifactJson, canonicalOrder } from '../core/json.js';
import { relPosix, sha256, writeFileAtomic, ensureFolder } from '../core/fsio.js';
import { headeredFolder, writeOutFolder } from '../core/out-folder.js';
import { phashOf } from '../core/phash.js';
import { TOOL } from '../core/tool.js';
import { datasetCard, licencesMd, type EntryLicence } from './card.js';
import { croissant, type GeneratedRai, type ReleaseFile } from './croissant.js';
import { tableCsv, tableParquet } from './files.js';
import {
  RELEASE_FORMAT,
  RELEASE_VERSION,
  type ReleaseHeader,
  type WithheldEntry,
} from './format.js';
import {
  readReleaseBundle,
  readReleaseLabels,
  readReleaseLedger,
  readReleaseScores,
  type ReleaseBundle,
} from './inputs.js';
import { licenceRule, shippedImages, ships } from './licences.js';
import { loadReleaseMeta } from './meta.js';
import { csvTable, responsesTable, stimuliTable, TRIALS_NUMERIC, type Table } from './tables.js';

/** Options of a release. */
export interface ReleaseOptions {
  bundle: string;
  ledger: string;
  scores: string;
  labels?: string;
  /** release.yaml (default: `release.yaml` beside the output folder). */
  meta?: string;
  out: string;
}

const RELEASE_FILES = { header: 'release.json' } as const;

const SPEC = headeredFolder({
  command: 'release',
  header: { file: RELEASE_FILES.header, format: RELEASE_FORMAT },
  names: ['croissant.json', 'README.md', 'LICENSES.md'],
  dirs: ['data', 'images'],
});

/** Each entry's licence rule, how many of the bundle's images are its, and how many of those ship. */
function entryLicences(b: ReleaseBundle, shipped: ReadonlySet<string>): EntryLicence[] {
  return [...b.entries.values()]
    .map((e) => ({
      entry: e.id,
      license: e.provenance?.license ?? '',
      rule: licenceRule(e.provenance?.license),
      credit: e.provenance?.credit ?? null,
      source_url: e.provenance?.source_url ?? null,
      images: b.variants.filter((v) => v.entry === e.id).length,
      shipped: b.variants.filter((v) => v.entry === e.id && shipped.has(v.sha256)).length,
    }))
    .filter((e) => e.images > 0)
    .sort((x, y) => (x.entry < y.entry ? -1 : x.entry > y.entry ? 1 : 0));
}

/**
 * The entries with withheld images, with what rehydrate needs: every image of an entry whose
 * licence withholds them; only the withheld ones of an entry whose images are also another
 * entry's (whose licence withholds them).
 */
function withheldEntries(
  b: ReleaseBundle,
  phash: ReadonlyMap<string, string>,
  shipped: ReadonlySet<string>,
): WithheldEntry[] {
  return entryLicences(b, shipped)
    .filter((e) => e.shipped < e.images)
    .map((e) => {
      const record = b.entries.get(e.entry)!;
      return {
        entry: e.entry,
        license: e.license,
        note: ships(e.rule)
          ? "withheld: these images are also another entry's, whose licence forbids redistribution"
          : e.rule.note,
        source: {
          file: record.image?.file ?? '',
          sha256: record.image?.sha256 ?? '',
          url: e.source_url,
        },
        images: b.variants
          .filter((v) => v.entry === e.entry && !shipped.has(v.sha256))
          .map((v) => ({ code: v.code, sha256: v.sha256, phash: phash.get(v.sha256) ?? '' })),
        // as the bundle's entries.json holds it (canonical JSON: keys sorted)
        record: canonicalOrder(record),
      };
    });
}

/** What the tool knows for the RAI fields: how the data came to be. */
function generatedRai(b: ReleaseBundle, scorers: string[], run: string): GeneratedRai {
  const archives = [
    ...new Set([...b.entries.values()].map((e) => e.provenance?.archive).filter(Boolean)),
  ];
  return {
    collectionType: `Curated archive images (${b.entries.size} entries) and their abstraction variants, shown to models with bilingual prompts in ${b.languages.join(', ')}; the models' replies collected through their APIs (stimkit run, run "${run}" of sealed bundle ${b.digest}).`,
    rawData: `Source images from: ${archives.join('; ') || 'no archive named'}. Each entry records its source URL, credit, licence and the sha256 of the source file (the stimuli record set).`,
    preprocessing: `Images decoded, auto-oriented and hashed (sha256 and a DCT perceptual hash), then made into the variants A0 (original) … A6 (silhouette) with the recipe recorded in release.json and each stimulus row (resolved parameters). Prompts rendered into minimal pairs and sealed with the images in a BagIt bundle before any model was run.`,
    annotation: `Replies scored by stimkit score with the scorers ${scorers.join(', ') || 'none'} (forced-choice parsing of the instrument; the six-dimension audit with an LLM judge where the study ran one); human ratings, when included, from stimkit's rater app (the ratings record set).`,
    tools: [`${TOOL.name} ${TOOL.version}`],
  };
}

/** The four record sets. */
async function releaseTables(
  o: ReleaseOptions,
  b: ReleaseBundle,
  phash: ReadonlyMap<string, string>,
) {
  const scores = await readReleaseScores(o.scores, b.digest);
  const ledger = await readReleaseLedger(o.ledger, b.digest, scores.header.params.run);
  checkScoresOfRun(scores.lines, ledger.results, {
    code: 'E_RELEASE_SCORES_LEDGER',
    scores: path.join(o.scores, 'score.json'),
    ledger: o.ledger,
    run: ledger.run,
  });
  const labels = o.labels === undefined ? null : await readReleaseLabels(o.labels, b.digest);
  const shipped = shippedImages(b.variants, (entry) => b.entries.get(entry)?.provenance?.license);
  const tables: Table[] = [
    stimuliTable(b.entries, b.variants, phash, shipped),
    responsesTable(
      ledger.results,
      (t) => b.trialImages.get(t) ?? [],
      (s) => shipped.has(s),
    ),
    csvTable(
      'scores',
      'One row per scored trial × model (the scores folder’s trials.csv)',
      scores.trialsCsv,
      ['trial', 'model'],
      (c) => `trials.csv column ${c} (docs/formats/trials-csv.md)`,
      TRIALS_NUMERIC,
    ),
  ];
  if (labels)
    tables.push(
      csvTable(
        'ratings',
        'Human ratings of a validation sample (stimkit label export)',
        labels.text,
        [],
        (c) => `labels.csv column ${c} (docs/formats/labels.md)`,
      ),
    );
  return { tables, scores, ledger, labels, shipped };
}

/** The perceptual hash of every bundle image (of the bytes the models were shown). */
async function bundlePhashes(b: ReleaseBundle): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const v of b.variants)
    if (!out.has(v.sha256))
      out.set(v.sha256, await phashOf(sharp(await readFile(path.join(b.dir, 'data', v.file)))));
  return out;
}

const MEDIA: Record<string, string> = {
  csv: 'text/csv',
  parquet: 'application/vnd.apache.parquet',
  png: 'image/png',
};

/** What a release summary says. */
export interface ReleaseResult {
  out: string;
  header: ReleaseHeader;
}

/**
 * Build the release into `out` (replaced whole when complete).
 *
 * @example
 * await buildRelease({ bundle: 'b', ledger: 'l.sqlite', scores: 's', out: 'release', meta: 'release.yaml' });
 */
export async function buildRelease(o: ReleaseOptions): Promise<ReleaseResult> {
  const out = path.resolve(o.out);
  const metaFile = path.resolve(o.meta ?? path.join(path.dirname(out), 'release.yaml'));
  const meta = await loadReleaseMeta(metaFile);
  const b = await readReleaseBundle(o.bundle);
  const phash = await bundlePhashes(b);
  const { tables, scores, ledger, labels, shipped } = await releaseTables(o, b, phash);
  const files = new Map<string, Uint8Array | string>();
  for (const t of tables) {
    files.set(`data/${t.name}.csv`, tableCsv(t));
    files.set(`data/${t.name}.parquet`, tableParquet(t));
  }
  for (const sha of [...shipped].sort())
    files.set(
      `images/${sha}.png`,
      await readFile(path.join(b.dir, 'data', 'images', `${sha}.png`)),
    );
  const described: ReleaseFile[] = [...files.entries()].map(([file, data]) => ({
    file,
    encodingFormat: MEDIA[file.slice(file.lastIndexOf('.') + 1)] ?? 'application/octet-stream',
    sha256: sha256(data),
  }));
  const licences = entryLicences(b, shipped);
  const rai = generatedRai(b, Object.keys(scores.header.params.scorers), ledger.run);
  const imageLicences = [
    ...new Set(licences.filter((e) => ships(e.rule)).map((e) => e.rule.id)),
  ].sort();
  files.set(
    'croissant.json',
    artifactJson(croissant(meta, tables, described, imageLicences, rai, shipped.size)),
  );
  files.set('README.md', datasetCard(meta, tables, b.languages, licences, rai, b.digest));
  files.set('LICENSES.md', licencesMd(meta, licences));
  const rel = (p: string) => relPosix(out, path.resolve(p));
  const header: ReleaseHeader = {
    format: RELEASE_FORMAT,
    version: RELEASE_VERSION,
    tool: { ...TOOL },
    bundle: { digest: b.digest, study: b.study },
    inputs: [
      { role: 'bundle', file: rel(path.join(o.bundle, 'manifest-sha256.txt')), sha256: b.digest },
      { role: 'ledger', file: rel(o.ledger), sha256: ledger.sha },
      { role: 'scores', file: rel(path.join(o.scores, 'score.json')), sha256: scores.sha },
      ...(labels ? [{ role: 'labels' as const, file: rel(labels.file), sha256: labels.sha }] : []),
      { role: 'release.yaml', file: rel(metaFile), sha256: sha256(await readFile(metaFile)) },
    ],
    params: { run: ledger.run, languages: b.languages },
    recipe: b.recipe,
    counts: {
      images: new Set(b.variants.map((v) => v.sha256)).size,
      shipped: shipped.size,
      withheld: new Set(b.variants.filter((v) => !shipped.has(v.sha256)).map((v) => v.sha256)).size,
      responses: tables[1]!.rows.length,
      scores: tables[2]!.rows.length,
      ratings: labels ? tables[3]!.rows.length : null,
    },
    withheld: withheldEntries(b, phash, shipped),
    files: [...files.entries()]
      .map(([file, data]) => ({ file, bytes: Buffer.byteLength(data), sha256: sha256(data) }))
      .sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : 0)),
  };
  await writeOutFolder(out, SPEC, async (tmp) => {
    for (const [file, data] of files) {
      await ensureFolder(path.dirname(path.join(tmp, file)));
      await writeFileAtomic(path.join(tmp, file), data);
    }
    await writeFileAtomic(path.join(tmp, RELEASE_FILES.header), artifactJson(header));
  });
  return { out, header };
}
