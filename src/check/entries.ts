/**
 * `stimkit check` of an entries manifest: the schema and every manifest rule ingest applies, the
 * images folder, and that each image file is there (named, not decoded: `stimkit ingest` decodes
 * and hashes them). Problems are all reported at once.
 */
import path from 'node:path';
import { lineOf, loadDataFile } from '../core/datafile.js';
import { StimkitError, type Problem } from '../core/errors.js';
import { resolveInside } from '../core/safe-path.js';
import { checkManifest } from '../ingest/checks.js';
import { closestImage, imagesRootProblem } from '../ingest/images-root.js';
import { EntriesManifest } from '../ingest/schema.js';
import type { CheckSummary } from './registry.js';

/** Check an entries manifest without decoding images. Throws a StimkitError listing every error. */
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
    for (const [i, e] of data.entries.entries()) {
      const r = await resolveInside(root, e.image.file);
      if (r.ok) continue;
      const guess = r.reason === 'missing' ? await closestImage(root, r.path) : undefined;
      problems.push({
        code: r.reason === 'missing' ? 'E_INGEST_IMAGE_MISSING' : 'E_INGEST_PATH_ESCAPES',
        severity: 'error',
        file,
        line: lineOf(parsed, ['entries', i, 'image', 'file']),
        field: `entries[${i}].image.file`,
        entry: e.id,
        message: r.detail,
        fix: guess
          ? `did you mean "${guess}"? Set image.file: ${guess}`
          : 'supply the file, or fix image.file (ingest --allow-missing lists it as missing)',
      });
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
