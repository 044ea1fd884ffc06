/**
 * `stimkit check` of an entries manifest: the schema and every manifest rule ingest applies, the
 * images folder, and each image as ingest reads it (there, inside the images root, its pinned
 * sha256, and fully decoded under ingest's default pixel limit: `ingestImage`, so check rejects
 * what ingest rejects). Problems are all reported at once.
 */
import path from 'node:path';
import { lineOf, loadDataFile } from '../core/datafile.js';
import { StimkitError, type Problem } from '../core/errors.js';
import { checkManifest } from '../ingest/checks.js';
import { ingestImage } from '../ingest/image.js';
import { imagesRootProblem } from '../ingest/images-root.js';
import { DEFAULT_PIXEL_LIMIT } from '../ingest/ingest.js';
import { EntriesManifest } from '../ingest/schema.js';
import type { CheckSummary } from './registry.js';

/** Check an entries manifest, decoding each image as ingest does. Throws a StimkitError listing every error. */
export async function checkEntries(file: string): Promise<CheckSummary> {
  const { data, parsed } = await loadDataFile(file, EntriesManifest, 'E_INGEST_SCHEMA');
  const problems = checkManifest(data, parsed);
  const manifestDir = path.dirname(path.resolve(file));
  const root = path.resolve(manifestDir, data.images);
  const rootProblem = await imagesRootProblem(root, {
    file,
    line: lineOf(parsed, ['images']),
    fromFlag: false,
    manifestDir,
  });
  if (rootProblem) problems.push(rootProblem);
  else {
    // Each image read, pin-checked and fully decoded exactly as ingest does (a truncated file fails here too).
    for (const [i, e] of data.entries.entries()) {
      const got = await ingestImage(
        e,
        root,
        manifestDir,
        file,
        lineOf(parsed, ['entries', i, 'image', 'file']),
        `entries[${i}]`,
        { allowMissing: false, pixelLimit: DEFAULT_PIXEL_LIMIT },
      );
      problems.push(...got.problems);
    }
  }
  const errors = problems.filter((p: Problem) => p.severity === 'error');
  if (errors.length > 0)
    throw new StimkitError(
      errors[0]!.code,
      `${file}: ${errors.length} problem(s) in the entries manifest`,
      { fix: 'correct the entries manifest as each problem below says', problems },
    );
  return {
    corpus: data.corpus,
    languages: data.languages,
    entries: data.entries.length,
    warnings: problems.filter((p) => p.severity === 'warning'),
  };
}
