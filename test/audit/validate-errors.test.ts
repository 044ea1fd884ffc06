/**
 * `validateJudges` refuses what cannot be validated, with a clear problem each: a missing labels
 * file, labels of another bundle, scores without judges, labels none of whose items are in the
 * scores; and counts the labelled items not found when only some are.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateJudges } from '../../src/audit/validate.js';
import { StimkitError } from '../../src/core/errors.js';
import { tempDir } from '../helpers/tmp.js';
import { GOOD } from './labels.js';

const DIGEST = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
let dir: string;
let scores: string;
let bare: string;

const record = (trial: string, judges: unknown[]) =>
  JSON.stringify({
    bundle: DIGEST,
    trial,
    model: 'm',
    paradigm: 'abstraction',
    parse: { judges },
    score: null,
    stance: null,
    reason: null,
    simulated: true,
  });
const labelsCsv = async (name: string, trials: string[], digest = DIGEST) => {
  const lines = [
    'trial_id,model,rater,d1_refusal,d2_integrity,d3_grounding,d4_state_aligned,d5_language,bundle_digest',
  ];
  for (const t of trials)
    for (const r of ['a', 'b']) lines.push(`${t},m,${r},false,false,true,true,true,${digest}`);
  const file = path.join(dir, name);
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
};
async function rejected(p: Promise<unknown>): Promise<StimkitError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StimkitError);
  return err as StimkitError;
}

beforeAll(async () => {
  dir = await tempDir('stimkit-validate-errors-');
  scores = path.join(dir, 'scores');
  bare = path.join(dir, 'bare');
  await mkdir(scores);
  await mkdir(bare);
  const judge = [
    { judge: 'j', simulated: true, status: 'ok', flags: [], problems: [], label: GOOD },
  ];
  await writeFile(
    path.join(scores, 'scores.jsonl'),
    `${['t1', 't2', 't3'].map((t) => record(t, judge)).join('\n')}\n`,
  );
  await writeFile(
    path.join(bare, 'scores.jsonl'),
    `${['t1', 't2', 't3'].map((t) => record(t, [])).join('\n')}\n`,
  );
});

describe('validate refuses what cannot be validated', () => {
  it('a labels file that is not there: the file and the fix, not ENOENT', async () => {
    const missing = path.join(dir, 'nope.csv');
    const e = await rejected(validateJudges(scores, missing));
    expect(e.code).toBe('E_AUDIT_LABELS');
    expect(e.problems[0]).toMatchObject({
      file: missing,
      message: 'file not found',
      fix: 'check the path',
    });
  });

  it("labels of another bundle: expected the scores' digest, got the labels'", async () => {
    const file = await labelsCsv('other-bundle.csv', ['t1', 't2'], OTHER);
    const e = await rejected(validateJudges(scores, file, { bundleDigest: DIGEST }));
    expect(e.code).toBe('E_AUDIT_LABELS_BUNDLE');
    expect(e.problems[0]).toMatchObject({
      file,
      field: 'bundle_digest',
      expected: DIGEST,
      got: OTHER,
    });
    // the same labels naming the scores' bundle pass
    const ok = await labelsCsv('same-bundle.csv', ['t1', 't2']);
    expect((await validateJudges(scores, ok, { bundleDigest: DIGEST })).items).toBe(2);
  });

  it('scores without judges: score with --judge first', async () => {
    const file = await labelsCsv('for-bare.csv', ['t1']);
    const e = await rejected(validateJudges(bare, file, { bundleDigest: DIGEST }));
    expect(e.code).toBe('E_AUDIT_NO_JUDGES');
    expect(e.message).toContain('score with --judge first');
  });

  it('no labelled item in the scores: says how many matched', async () => {
    const file = await labelsCsv('elsewhere.csv', ['x1', 'x2', 'x3', 'x4']);
    const e = await rejected(validateJudges(scores, file, { bundleDigest: DIGEST }));
    expect(e.code).toBe('E_AUDIT_LABELS_NO_OVERLAP');
    expect(e.problems[0]!.got).toBe('0 of 4 labelled item(s) found');
  });

  it('some labelled items not in the scores: goes ahead and counts them', async () => {
    const file = await labelsCsv('partial.csv', ['t1', 't2', 'x1']);
    const r = await validateJudges(scores, file, { bundleDigest: DIGEST });
    expect(r.items).toBe(3);
    expect(r.unmatched_items).toBe(1);
    const d4 = r.dimensions.find((d) => d.dimension === 'd4')!.judges[0]!.vs_majority;
    expect(d4.tp + d4.fn + d4.fp + d4.tn).toBe(2);
    const full = await labelsCsv('full.csv', ['t1', 't2', 't3']);
    expect(
      (await validateJudges(scores, full, { bundleDigest: DIGEST })).unmatched_items,
    ).toBeUndefined();
  });
});
