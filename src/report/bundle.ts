/**
 * The scored bundle, for sections that show its images (the abstraction ladder's thumbnails).
 * score.json records the bundle as an input (`role: bundle`, the path of its
 * `manifest-sha256.txt` relative to the scores folder, and the digest); `stimkit report --bundle
 * DIR` names it when it has moved. The bundle must have the scored digest. When it cannot be
 * used the result says why in one sentence, and sections say so on the page instead of failing.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { loadBundle, type BundleData } from '../label/bundle.js';
import type { ScoresHeader } from '../score/format.js';

/** The bundle folder score.json points to (resolved against the scores folder), or null. */
function recordedBundleDir(scoresDir: string, header: ScoresHeader): string | null {
  const input = header.inputs.find((i) => i.role === 'bundle');
  if (!input) return null;
  return path.dirname(path.resolve(scoresDir, input.file));
}

/**
 * Load the bundle for the report: `given` (report --bundle) or the one score.json records. A
 * recorded bundle that cannot be used gives a note for the page; a `given` one is an error
 * (E_REPORT_BUNDLE): the user named it, so leaving its images out in silence would mislead.
 */
export async function reportBundle(
  scoresDir: string,
  header: ScoresHeader,
  given?: string,
): Promise<{ bundle: BundleData | null; note: string | null }> {
  const found = await findBundle(scoresDir, header, given);
  if (given !== undefined && found.bundle === null) {
    throw StimkitError.fromProblem({
      code: 'E_REPORT_BUNDLE',
      file: given,
      message: '--bundle does not name the scored bundle',
      expected: `the bundle folder of digest ${header.bundle.digest} (the one these scores were scored against)`,
      got: found.got ?? 'something else',
      fix: 'pass the folder stimkit bundle wrote for these scores (check it with stimkit verify), or leave --bundle out',
    });
  }
  return { bundle: found.bundle, note: found.note };
}

async function findBundle(
  scoresDir: string,
  header: ScoresHeader,
  given?: string,
): Promise<{ bundle: BundleData | null; note: string | null; got?: string }> {
  const dir = given ?? recordedBundleDir(scoresDir, header);
  const recorded = header.inputs.find((i) => i.role === 'bundle');
  // Name the folder as the user gave it, or as score.json records it (relative to the scores folder): no absolute paths on the page.
  const how = given
    ? `given with --bundle (${given})`
    : `recorded in score.json (${path.posix.dirname(recorded?.file ?? '.')}, relative to the scores folder)`;
  if (!dir)
    return {
      bundle: null,
      note: 'score.json records no bundle path; pass the bundle with stimkit report --bundle DIR to show its images',
    };
  if (!existsSync(path.join(dir, 'manifest-sha256.txt'))) {
    return {
      bundle: null,
      note: `the bundle ${how} is not there (moved or deleted); pass it with stimkit report --bundle DIR to show its images`,
      got: existsSync(dir)
        ? 'a folder without manifest-sha256.txt (not a bundle)'
        : 'nothing there',
    };
  }
  let bundle: BundleData;
  try {
    bundle = await loadBundle(dir);
  } catch (err) {
    return {
      bundle: null,
      note: `the bundle ${how} cannot be read (${(err as Error).message}); check it with stimkit verify`,
      got: `a bundle that cannot be read (${(err as Error).message})`,
    };
  }
  if (bundle.digest !== header.bundle.digest) {
    return {
      bundle: null,
      note: `the bundle ${how} has digest ${bundle.digest.slice(0, 12)}…, not the scored ${header.bundle.digest.slice(0, 12)}…; pass the scored bundle with stimkit report --bundle DIR`,
      got: `a bundle of digest ${bundle.digest}`,
    };
  }
  return { bundle, note: null };
}
