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

  it('names the line of a bad JSONL row (blank lines counted) and refuses a line that is not an object', async () => {
    const dir = await tempDir('stimkit-judges-');
    const file = path.join(dir, 'judges.jsonl');
    const good = JSON.stringify({ trial_id: T, model: 'm', judge: 'a', d1: true });
    const problem = async (text: string) => {
      await writeFile(file, text);
      const err = await readJudgeLabels(file).catch((e: unknown) => e);
      return (err as { problems?: unknown[] }).problems?.[0];
    };
    const bad = JSON.stringify({ trial_id: T, model: 'm', judge: 'b', d4: 'perhaps' });
    expect(await problem(`${good}\n\n${bad}\n`)).toMatchObject({
      code: 'E_LABEL_JUDGES',
      file,
      line: 3,
      field: 'd4',
      got: '"perhaps"',
    });
    for (const [line, got] of [
      ['null', 'null'],
      ['[1, 2]', 'an array'],
      ['"a"', 'string'],
    ])
      expect(await problem(`${good}\n\n${line}\n`), line).toMatchObject({
        code: 'E_LABEL_JUDGES',
        line: 3,
        message: 'not a JSON object',
        got,
      });
    expect(await problem(`${good}\n{oops\n`)).toMatchObject({
      code: 'E_LABEL_JUDGES',
      line: 2,
      message: expect.stringMatching(/^not JSON/),
    });
    // A CSV's rows are numbered as lines after the header.
    await writeFile(
      path.join(dir, 'j.csv'),
      `trial_id,model,judge,d1\n${T},m,a,true\n${T},m,b,perhaps\n`,
    );
    const csv = await readJudgeLabels(path.join(dir, 'j.csv')).catch((e: unknown) => e);
    expect((csv as { problems?: unknown[] }).problems?.[0]).toMatchObject({ line: 3, field: 'd1' });
  });
});
