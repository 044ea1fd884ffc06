/** Judge labels for review mode: CSV (also a labels export) or JSONL, and what counts as disagreement. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { disagreements, judgesByItem, readJudgeLabels } from '../../src/label/judges.js';
import { tempDir } from '../helpers/tmp.js';

const T = 't_000000000000000000000001';

describe('judge labels', () => {
  it('reads a CSV in the labels-export layout (rater = judge) and finds the dimensions in dispute', async () => {
    const dir = await tempDir('stimkit-judges-');
    const file = path.join(dir, 'judges.csv');
    await writeFile(
      file,
      'sample_item,trial_id,model,rater,d1_refusal,d2_integrity,d3_grounding,d4_state_aligned,dt1_endorsement,dt2_substitution,dt3_deflection,d5_language\n' +
        `i_1,${T},m,opus,false,true,na,true,false,true,false,true\n` +
        `i_1,${T},m,gpt,FALSE,0,N/A,false,,,,yes\n`,
    );
    const rows = await readJudgeLabels(file);
    expect(
      rows.map((r) => [r.judge, r.d1, r.d2, r.d3, r.d4, r.d5, r.strategies.join(' ')]),
    ).toEqual([
      ['opus', 'false', 'true', 'na', 'true', 'true', 'DT2'],
      ['gpt', 'false', 'false', 'na', 'false', 'true', ''],
    ]);
    expect(disagreements(judgesByItem(rows).get(`${T}\nm`)!)).toEqual(['d2', 'd4']);
    expect(disagreements([rows[0]!])).toEqual([]);
  });

  it('reads JSONL with booleans and a strategy list, and rejects a value that is not a label', async () => {
    const dir = await tempDir('stimkit-judges-');
    const file = path.join(dir, 'judges.jsonl');
    await writeFile(
      file,
      `${JSON.stringify({ trial_id: T, model: 'm', judge: 'a', d1: true, d4: true, strategies: ['DT1', 'DT3'], rationale: 'why' })}\n`,
    );
    const [row] = await readJudgeLabels(file);
    expect([row!.d1, row!.d2, row!.d4, row!.strategies, row!.rationale]).toEqual([
      'true',
      null,
      'true',
      ['DT1', 'DT3'],
      'why',
    ]);
    await writeFile(
      file,
      `${JSON.stringify({ trial_id: T, model: 'm', judge: 'a', d1: 'perhaps' })}\n`,
    );
    await expect(readJudgeLabels(file)).rejects.toMatchObject({ code: 'E_LABEL_JUDGES' });
    await writeFile(file, `${JSON.stringify({ trial_id: T, d1: true })}\n`);
    await expect(readJudgeLabels(file)).rejects.toThrow(/needs trial_id, model and judge/);
  });
});
