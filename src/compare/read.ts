/**
 * A scores folder as `compare` reads it (through `openScores`: `score.json` checked by its zod
 * schema, `scores.jsonl` and `trials.csv` against the sha256 it records), joined per trial × model.
 */
import path from 'node:path';
import { readCsvObjects } from '../core/csv.js';
import { StimkitError } from '../core/errors.js';
import type { ScoresHeader } from '../score/format.js';
import { openScores } from '../score/read.js';
import { AUDIT_CELLS, type CompareRow } from './columns.js';

/** One scores folder, read. */
export interface ScoresSide {
  dir: string;
  header: ScoresHeader;
  headerSha256: string;
  rows: CompareRow[];
}

const pairKey = (trial: string, model: string) => JSON.stringify([trial, model]);

/** The rows of a scores folder, one per trial × model, in scores.jsonl order. */
export async function readScoresSide(dir: string): Promise<ScoresSide> {
  const scores = await openScores(dir, 'E_COMPARE_SCORES');
  const csv = readCsvObjects(await scores.required('trials.csv'));
  const byKey = new Map(csv.map((r) => [pairKey(r.trial ?? '', r.model ?? ''), r]));
  const rows = (await scores.lines()).map((s): CompareRow => {
    const t = byKey.get(pairKey(s.trial, s.model));
    if (!t)
      throw StimkitError.fromProblem({
        code: 'E_COMPARE_SCORES',
        file: path.join(dir, 'trials.csv'),
        message: `no row for ${s.trial} × ${s.model}`,
        fix: 'pass the --out folder of `stimkit score` (score again if it was changed or interrupted)',
      });
    return {
      trial: s.trial,
      model: s.model,
      paradigm: s.paradigm,
      language: t.language ?? '',
      route: s.route ?? null,
      outcome: s.outcome ?? null,
      reason: s.reason,
      score: s.score,
      label: typeof s.parse.label === 'string' ? s.parse.label : null,
      cells: Object.fromEntries(AUDIT_CELLS.map((c) => [c, t[c] ?? ''])),
    };
  });
  return { dir, header: scores.header, headerSha256: scores.sha, rows };
}
