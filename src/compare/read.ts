/**
 * A scores folder as `compare` reads it: `score.json` (checked by its zod schema), `scores.jsonl`
 * and `trials.csv`, each checked against the sha256 `score.json` records, joined per trial × model.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readCsvObjects } from '../core/csv.js';
import { StimkitError } from '../core/errors.js';
import { sha256 } from '../core/fsio.js';
import { SCORES_FILES, ScoreLine, ScoresHeader } from '../score/format.js';
import { AUDIT_CELLS, type CompareRow } from './columns.js';

/** One scores folder, read. */
export interface ScoresSide {
  dir: string;
  header: ScoresHeader;
  headerSha256: string;
  rows: CompareRow[];
}

const bad = (
  file: string,
  message: string,
  cause?: unknown,
  field?: string,
  code = 'E_COMPARE_SCORES',
) =>
  StimkitError.fromProblem(
    {
      code,
      file,
      ...(field === undefined ? {} : { field }),
      message,
      fix: 'pass the --out folder of `stimkit score` (score again if it was changed or interrupted)',
    },
    cause,
  );

/** A scores folder's `score.json`, checked by its schema, and the sha256 of its bytes. */
export async function readScoresHeader(
  dir: string,
  code = 'E_COMPARE_SCORES',
): Promise<{ header: ScoresHeader; sha: string }> {
  const file = path.join(dir, SCORES_FILES.header);
  let text: string;
  let value: unknown;
  try {
    text = await readFile(file, 'utf8');
    value = JSON.parse(text);
  } catch (err) {
    throw bad(
      file,
      'no readable score.json: not a scores folder (or an interrupted one)',
      err,
      undefined,
      code,
    );
  }
  const parsed = ScoresHeader.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw bad(
      file,
      `not a stimkit.scores header: ${issue.message}`,
      undefined,
      issue.path.join('.'),
    );
  }
  return { header: parsed.data, sha: sha256(text) };
}

/** A file of a scores folder, checked against the sha256 its score.json records. */
export async function readListed(
  dir: string,
  header: ScoresHeader,
  name: string,
  code = 'E_COMPARE_SCORES',
): Promise<string> {
  const file = path.join(dir, name);
  const listed = header.files.find((f) => f.file === name);
  if (!listed) throw bad(file, `score.json lists no ${name}`, undefined, undefined, code);
  const text = await readFile(file, 'utf8').catch((err: unknown) => {
    throw bad(file, `cannot read ${name}`, err, undefined, code);
  });
  const changed =
    'this file does not match the sha256 score.json records: it changed after scoring';
  if (sha256(text) !== listed.sha256) throw bad(file, changed, undefined, undefined, code);
  return text;
}

const pairKey = (trial: string, model: string) => JSON.stringify([trial, model]);

/** The rows of a scores folder, one per trial × model, in scores.jsonl order. */
export async function readScoresSide(dir: string): Promise<ScoresSide> {
  const { header, sha } = await readScoresHeader(dir);
  const file = path.join(dir, SCORES_FILES.records);
  const lines = (await readListed(dir, header, SCORES_FILES.records)).split('\n');
  const csv = readCsvObjects(await readListed(dir, header, 'trials.csv'));
  const byKey = new Map(csv.map((r) => [pairKey(r.trial ?? '', r.model ?? ''), r]));
  const rows: CompareRow[] = [];
  lines.forEach((line, i) => {
    if (line === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw bad(file, `line ${i + 1}: not JSON`, err);
    }
    const parsed = ScoreLine.safeParse(value);
    if (!parsed.success) throw bad(file, `line ${i + 1}: not a score line`, parsed.error);
    const s = parsed.data;
    const t = byKey.get(pairKey(s.trial, s.model));
    if (!t) throw bad(path.join(dir, 'trials.csv'), `no row for ${s.trial} × ${s.model}`);
    rows.push({
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
    });
  });
  return { dir, header, headerSha256: sha, rows };
}
