/**
 * `validateJudges` refuses what cannot be validated, with a clear problem each: a missing labels
 * file, labels of another bundle, scores without judges, a scores line without judge labels it can
 * read, labels none of whose items are in the scores; and counts the labelled items not found when
 * only some are. (The scores' text is given as the command reads it from a scores folder.)
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateJudges, type ScoresText } from '../../src/audit/validate.js';
import { StimkitError } from '../../src/core/errors.js';
import { tempDir } from '../helpers/tmp.js';
import { GOOD } from './labels.js';

const DIGEST = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
let dir: string;
let scores: ScoresText;
let bare: ScoresText;

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
  const judge = [
    { judge: 'j', simulated: true, status: 'ok', flags: [], problems: [], label: GOOD },
  ];
  const jsonl = (name: string, judges: unknown[]) => ({
    file: path.join(dir, name, 'scores.jsonl'),
    text: `${['t1', 't2', 't3'].map((t) => record(t, judges)).join('\n')}\n`,
  });
  scores = jsonl('scores', judge);
  bare = jsonl('bare', []);
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

  it('a scores line whose judge label it cannot read: the line and the field, not a TypeError', async () => {
    const file = await labelsCsv('for-bad-line.csv', ['t1']);
    const lines = scores.text.split('\n');
    const bad = JSON.parse(lines[1]!);
    bad.parse.judges[0].label.state_aligned = 'yes';
    lines[1] = JSON.stringify(bad);
    const e = await rejected(
      validateJudges({ ...scores, text: lines.join('\n') }, file, { bundleDigest: DIGEST }),
    );
    expect(e.code).toBe('E_AUDIT_SCORES');
    expect(e.problems[0]).toMatchObject({
      file: scores.file,
      line: 2,
      field: 'parse.judges.0.label.state_aligned',
    });
    // a VLM line without its parse
    const noParse = `${lines[0]}\n${JSON.stringify({ trial: 't2', model: 'm', paradigm: 'abstraction' })}\n`;
    const f = await rejected(
      validateJudges({ ...scores, text: noParse }, file, { bundleDigest: DIGEST }),
    );
    expect(f.problems[0]).toMatchObject({ line: 2, field: 'parse' });
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
