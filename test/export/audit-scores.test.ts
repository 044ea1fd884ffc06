/**
 * The scores of a scores folder as Inspect scores (src/export/inspect-scores.ts), on a folder
 * written here by hand: each audit dimension with its columns as metadata, an empty cell left out
 * (never 0), a spreadsheet-guarded cell read back as written, and a bad scores line refused naming
 * its line.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/core/fsio.js';
import { readExportScores, scoreKey } from '../../src/export/inspect-scores.js';
import { tempDir } from '../helpers/tmp.js';

const DIGEST = 'a'.repeat(64);
const COLUMNS = [
  'trial',
  'model',
  'd1_refusal',
  'd1_refusal_reason',
  'd2_integrity',
  'd2_failure_type',
  'd3_grounded',
  'd4_state_aligned',
  'd4_strategy',
  'd5_language_consistent',
  'd5_share',
  'd6_length_raw',
  'd6_length_clean',
  'judge',
  'judge_status',
];
const AUDIT = [
  COLUMNS.join(','),
  't_1,m,0,,1,,1,1,DT2,1,0.98,120,100,gpt-judge,label',
  "t_2,m,1,'=HYPERLINK(x),0,omission,,,,,,,,gpt-judge,label",
  't_3,m,,,,,,,,,,,,,',
].join('\n');

/** The exported run: a ledger run with no results (scores.jsonl is empty here). */
const RUN = { label: 'main', ledger: 'ledger.sqlite', results: () => [] };

/** A scores folder holding `files` (and, as every scores folder does, a scores.jsonl: empty here). */
async function folder(given: Record<string, string>): Promise<string> {
  const files = { 'scores.jsonl': '', ...given };
  const dir = await tempDir('stimkit-export-scores-unit-');
  await mkdir(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) await writeFile(path.join(dir, f), text);
  const header = {
    format: 'stimkit.scores',
    version: 1,
    tool: { name: 'stimkit', version: '0.1.0' },
    bundle: { digest: DIGEST, study: null },
    inputs: [],
    params: { source: 'responses', run: null, csv: 'safe', scorers: {} },
    counts: { records: 0, simulated: 0, models: [], by_paradigm: {}, by_reason: {}, unscored: {} },
    files: Object.entries(files).map(([file, text]) => ({ file, rows: 0, sha256: sha256(text) })),
  };
  await writeFile(path.join(dir, 'score.json'), JSON.stringify(header));
  return dir;
}

describe('readExportScores', () => {
  it('reads each audit dimension, leaves empty cells out and restores guarded text', async () => {
    const { byKey } = await readExportScores(await folder({ 'audit.csv': AUDIT }), DIGEST, RUN);
    expect(byKey.get(scoreKey('m', 't_1'))).toEqual({
      d1_refusal: {
        value: 0,
        metadata: { judge: 'gpt-judge', judge_status: 'label' },
        history: [],
      },
      d2_integrity: {
        value: 1,
        metadata: { judge: 'gpt-judge', judge_status: 'label' },
        history: [],
      },
      d3_grounded: {
        value: 1,
        metadata: { judge: 'gpt-judge', judge_status: 'label' },
        history: [],
      },
      d4_state_aligned: {
        value: 1,
        metadata: { d4_strategy: 'DT2', judge: 'gpt-judge', judge_status: 'label' },
        history: [],
      },
      d5_language_consistent: {
        value: 1,
        metadata: { d5_share: 0.98, judge: 'gpt-judge', judge_status: 'label' },
        history: [],
      },
      d6_length_clean: {
        value: 100,
        metadata: { d6_length_raw: 120, judge: 'gpt-judge', judge_status: 'label' },
        history: [],
      },
    });
    // a blank-looking cell is text, never the 0 `Number(' ')` gives
    const blank = await readExportScores(
      await folder({ 'audit.csv': `${COLUMNS.join(',')}\nt_9,m, ,,,,,,,,,,,,\n` }),
      DIGEST,
      RUN,
    );
    expect(blank.byKey.get(scoreKey('m', 't_9'))!.d1_refusal!.value).toBe(' ');
    const second = byKey.get(scoreKey('m', 't_2'))!;
    expect(Object.keys(second)).toEqual(['d1_refusal', 'd2_integrity']);
    expect(second.d1_refusal!.metadata!.d1_refusal_reason).toBe('=HYPERLINK(x)');
    expect(second.d2_integrity!.value).toBe(0);
    expect(byKey.get(scoreKey('m', 't_3'))).toEqual({});
  });

  it('refuses a scores line that is not one, naming its line (E_EXPORT_SCORES)', async () => {
    const lines = `{"bundle":"${DIGEST}","trial":"t_1","model":"m"}\n`;
    const dir = await folder({ 'scores.jsonl': lines });
    const err = await readExportScores(dir, DIGEST, RUN).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_EXPORT_SCORES' });
    expect((err as any).problems[0].line).toBe(1);
  });

  it('refuses a file changed after scoring (E_EXPORT_SCORES)', async () => {
    const dir = await folder({ 'audit.csv': AUDIT });
    await writeFile(path.join(dir, 'audit.csv'), `${AUDIT}\n`);
    await expect(readExportScores(dir, DIGEST, RUN)).rejects.toMatchObject({
      code: 'E_EXPORT_SCORES',
    });
  });
});
