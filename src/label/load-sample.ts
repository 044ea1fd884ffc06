/**
 * Opening a validation sample for labelling: the file is checked against its schema, then against
 * the bundle it names — same digest, every trial present, every image present with its digest —
 * so that a rater never labels a screen that does not show what the sample promised.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { StimkitError, type Problem } from '../core/errors.js';
import { readTextFile, sha256 } from '../core/fsio.js';
import { imageFile, loadBundle, type BundleData } from './bundle.js';
import { LABEL_SAMPLE_FORMAT, LabelSample } from './sample-schema.js';

export interface OpenSample {
  file: string;
  /** sha256 of the sample file's bytes: stored with every rater's labels. */
  sha256: string;
  sample: LabelSample;
  bundle: BundleData;
}

/** Parse and validate a sample file (no bundle check). */
export async function readLabelSample(
  file: string,
): Promise<{ sample: LabelSample; sha256: string }> {
  const text = await readTextFile(file, 'E_LABEL_SAMPLE');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw StimkitError.fromProblem(
      {
        code: 'E_LABEL_SAMPLE',
        file,
        message: 'not JSON',
        fix: 'give the file `stimkit label sample` wrote',
      },
      err,
    );
  }
  const fmt = (value as { format?: unknown; version?: unknown } | null) ?? {};
  if (fmt.format !== LABEL_SAMPLE_FORMAT || fmt.version !== 1) {
    throw StimkitError.fromProblem({
      code: 'E_LABEL_SAMPLE_FORMAT',
      file,
      message: 'not a validation sample this stimkit can read',
      expected: `format ${LABEL_SAMPLE_FORMAT} version 1`,
      got: `format ${JSON.stringify(fmt.format)} version ${JSON.stringify(fmt.version)}`,
      fix: 'write the sample with `stimkit label sample`, or upgrade stimkit',
    });
  }
  const r = LabelSample.safeParse(value);
  if (!r.success) {
    const problems: Problem[] = r.error.issues.slice(0, 20).map((i) => ({
      code: 'E_LABEL_SAMPLE',
      severity: 'error',
      file,
      field: i.path.join('.'),
      message: i.message,
      fix: 'write the sample with `stimkit label sample`',
    }));
    throw new StimkitError('E_LABEL_SAMPLE', `${file}: not a valid validation sample`, {
      fix: 'write the sample again with `stimkit label sample`; do not edit it by hand',
      problems,
    });
  }
  const ids = new Set<string>();
  for (const item of r.data.items) {
    if (ids.has(item.id))
      throw StimkitError.fromProblem({
        code: 'E_LABEL_SAMPLE',
        file,
        field: 'items',
        message: `item ${item.id} is listed twice`,
        fix: 'write the sample again with `stimkit label sample`',
      });
    ids.add(item.id);
  }
  return { sample: r.data, sha256: sha256(text) };
}

/** Open a sample and its bundle (the sample's `bundle.path`, or `bundleDir`) and cross-check them. */
export async function openLabelSample(file: string, bundleDir?: string): Promise<OpenSample> {
  const { sample, sha256: digest } = await readLabelSample(file);
  const dir = bundleDir ?? path.resolve(path.dirname(path.resolve(file)), sample.bundle.path);
  const bundle = await loadBundle(dir);
  if (bundle.digest !== sample.bundle.digest) {
    throw StimkitError.fromProblem({
      code: 'E_LABEL_SAMPLE_BUNDLE_MISMATCH',
      file,
      field: 'bundle.digest',
      message: `the sample was drawn from another bundle than ${dir}`,
      expected: sample.bundle.digest,
      got: bundle.digest,
      fix: 'give the bundle the sample was drawn from with --bundle (its digest must match), or draw a new sample from this bundle',
    });
  }
  const problems: Problem[] = [];
  const checked = new Map<string, string | null>();
  for (const [i, item] of sample.items.entries()) {
    const t = bundle.trialById.get(item.trial_id);
    const field = `items[${i}]`;
    if (!t) {
      problems.push({
        code: 'E_LABEL_SAMPLE_BUNDLE_MISMATCH',
        severity: 'error',
        file,
        field,
        message: `trial ${item.trial_id} is not in the bundle`,
        fix: 'draw the sample again from this bundle',
      });
      continue;
    }
    if (item.entry !== null && !bundle.entries.has(item.entry)) {
      problems.push({
        code: 'E_LABEL_SAMPLE_BUNDLE_MISMATCH',
        severity: 'error',
        file,
        field,
        message: `entry ${item.entry} is not in the bundle's entries.json`,
        fix: 'draw the sample again from this bundle',
      });
    }
    for (const img of item.images) {
      if (!checked.has(img)) {
        const bytes = await readFile(imageFile(bundle, img)).catch(() => null);
        checked.set(img, bytes === null ? 'missing' : sha256(bytes) === img ? null : 'changed');
      }
      const bad = checked.get(img);
      if (bad) {
        problems.push({
          code: 'E_LABEL_IMAGE_MISSING',
          severity: 'error',
          file: path.join(bundle.dir, 'data', 'images', `${img}.png`),
          field,
          message:
            bad === 'missing'
              ? `the image of trial ${item.trial_id} is missing from the bundle`
              : `the image of trial ${item.trial_id} does not match its digest`,
          fix: 'restore the bundle (`stimkit verify` names every changed or missing file)',
        });
      }
    }
  }
  if (problems.length > 0) {
    throw new StimkitError(
      problems[0]!.code,
      `${file}: the sample does not match its bundle ${bundle.dir}`,
      {
        fix: 'serve the sample with the bundle it was drawn from (--bundle), or draw a new sample with `stimkit label sample`',
        problems: problems.slice(0, 50),
      },
    );
  }
  return { file: path.resolve(file), sha256: digest, sample, bundle };
}
