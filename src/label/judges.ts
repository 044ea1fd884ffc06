/**
 * Judge labels for the review mode: which items the LLM judges disagree on, and what each said.
 *
 * Input, kept simple: a CSV with a header, or JSONL, one row per item × judge, with `trial_id`,
 * `model`, the judge's name in `judge` (or `rater`, so a labels CSV written by `stimkit label
 * export` works too), and the answers in `d1`…`d5` or `d1_refusal`, `d2_integrity`,
 * `d3_grounding`, `d4_state_aligned`, `d5_language`: true/false/na (also TRUE, 1, 0, yes, no, N/A,
 * booleans, null). Optional: `strategies` ("DT1 DT2" or a list) or `dt1`…`dt3`, and `rationale`.
 * The audit's own `judges.csv` (one row per response, `NAME:d1` … per judge) is read as is
 * (judges-wide.ts); `judges` picks judges by name in either layout.
 */
import { readCsvObjects } from '../core/csv.js';
import { StimkitError } from '../core/errors.js';
import { readTextFile } from '../core/fsio.js';
import { jsonKind } from '../core/json.js';
import { expandWide, wideJudges } from './judges-wide.js';
import { DIMENSIONS, type Answer, type Dimension } from './store.js';

/** One judge's labels of one item. */
export interface JudgeLabels {
  judge: string;
  trial_id: string;
  model: string;
  d1: Answer | null;
  d2: Answer | null;
  d3: Answer | null;
  d4: Answer | null;
  d5: Answer | null;
  strategies: string[];
  rationale: string;
}

const LONG: Record<Dimension, string> = {
  d1: 'd1_refusal',
  d2: 'd2_integrity',
  d3: 'd3_grounding',
  d4: 'd4_state_aligned',
  d5: 'd5_language',
};

/** A cell of the file as text: a string as it is, a number or boolean written out, else ''. */
function scalarText(v: unknown): string {
  if (typeof v === 'string') return v;
  return typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

function answer(v: unknown): Answer | null | 'bad' {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v !== 'string' && typeof v !== 'number') return 'bad';
  const s = String(v).trim().toLowerCase();
  if (['true', '1', 'yes', 't', 'y'].includes(s)) return 'true';
  if (['false', '0', 'no', 'f', 'n'].includes(s)) return 'false';
  if (['na', 'n/a', 'none', 'null'].includes(s)) return 'na';
  return 'bad';
}

/** A row of the file with the line it starts on (1-based; a CSV's header is line 1). */
interface Row {
  line: number;
  r: Record<string, unknown>;
}

/** The JSONL rows: each non-blank line one JSON object, or an error naming the line. */
function jsonlRows(file: string, text: string): Row[] {
  const rows: Row[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const where = { code: 'E_LABEL_JUDGES', file, line: i + 1 } as const;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      throw StimkitError.fromProblem(
        {
          ...where,
          message: `not JSON (${(err as Error).message})`,
          fix: 'write one JSON object per line (or give a CSV with a header row)',
        },
        err,
      );
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw StimkitError.fromProblem({
        ...where,
        message: 'not a JSON object',
        expected: 'an object with trial_id, model, judge and the labels',
        got: jsonKind(value),
        fix: 'write one JSON object per line',
      });
    }
    rows.push({ line: i + 1, r: value as Record<string, unknown> });
  });
  return rows;
}

/** The CSV's rows as text cells: line i + 2 for row i (after the header). */
function csvRows(file: string, text: string): Array<Record<string, string>> {
  try {
    return readCsvObjects(text, { ragged: false });
  } catch (err) {
    throw StimkitError.fromProblem(
      {
        code: 'E_LABEL_JUDGES',
        file,
        message: `cannot parse the judge labels (${(err as Error).message})`,
        fix: 'give a CSV with a header row, or JSONL',
      },
      err,
    );
  }
}

/**
 * Read judge labels from a CSV or JSONL file (by its first non-blank character): one row per item ×
 * judge, or the audit's wide judges.csv. `judges` keeps only those judges (all when empty).
 */
export async function readJudgeLabels(
  file: string,
  judges: readonly string[] = [],
): Promise<JudgeLabels[]> {
  const text = await readTextFile(file, 'E_LABEL_JUDGES');
  let rows: Row[];
  if (text.trimStart().startsWith('{')) rows = jsonlRows(file, text);
  else {
    const csv = csvRows(file, text);
    const header = csv.length > 0 ? Object.keys(csv[0]!) : [];
    if (wideJudges(header).length > 0) return expandWide(file, csv, header, judges);
    rows = csv.map((r, i) => ({ line: i + 2, r }));
  }
  const long = readLong(file, rows);
  const missing = judges.filter((j) => !long.some((r) => r.judge === j));
  if (missing.length > 0) {
    throw StimkitError.fromProblem({
      code: 'E_LABEL_JUDGES',
      file,
      message: `no judge ${missing.join(', ')} in this file`,
      expected: [...new Set(long.map((r) => r.judge))].join(', '),
      got: missing.join(', '),
      fix: 'choose among the judges the file holds',
    });
  }
  return judges.length > 0 ? long.filter((r) => judges.includes(r.judge)) : long;
}

function readLong(file: string, rows: Row[]): JudgeLabels[] {
  return rows.map(({ line, r }) => {
    const where = { file, line };
    const judge = scalarText(r.judge ?? r.rater);
    if (!judge || typeof r.trial_id !== 'string' || typeof r.model !== 'string') {
      throw StimkitError.fromProblem({
        code: 'E_LABEL_JUDGES',
        ...where,
        message: 'a row needs trial_id, model and judge (or rater)',
        fix: 'add those columns',
      });
    }
    const out: JudgeLabels = {
      judge,
      trial_id: r.trial_id,
      model: r.model,
      d1: null,
      d2: null,
      d3: null,
      d4: null,
      d5: null,
      strategies: [],
      rationale: scalarText(r.rationale),
    };
    for (const d of DIMENSIONS) {
      const a = answer(r[d] ?? r[LONG[d]]);
      if (a === 'bad') {
        throw StimkitError.fromProblem({
          code: 'E_LABEL_JUDGES',
          ...where,
          field: d,
          message: 'not a label',
          expected: 'true, false or na',
          got: JSON.stringify(r[d] ?? r[LONG[d]]),
          fix: 'write true, false or na',
        });
      }
      out[d] = a;
    }
    const st = r.strategies ?? r.ccp_strategy;
    if (Array.isArray(st)) out.strategies = st.map(String);
    else if (typeof st === 'string' && st.trim())
      out.strategies = st.split(/[\s,;|]+/).filter(Boolean);
    else
      out.strategies = ['dt1', 'dt2', 'dt3']
        .filter(
          (k) =>
            answer(
              r[k] ??
                r[`${k}_${{ dt1: 'endorsement', dt2: 'substitution', dt3: 'deflection' }[k]}`],
            ) === 'true',
        )
        .map((k) => k.toUpperCase());
    return out;
  });
}

/** Group judge rows by `trial_id\nmodel`. */
export function judgesByItem(rows: JudgeLabels[]): Map<string, JudgeLabels[]> {
  const m = new Map<string, JudgeLabels[]>();
  for (const r of rows) {
    const k = `${r.trial_id}\n${r.model}`;
    m.set(k, [...(m.get(k) ?? []), r]);
  }
  return m;
}

/** The dimensions on which the judges of one item disagree (none with fewer than two judges). */
export function disagreements(judges: JudgeLabels[]): Dimension[] {
  if (judges.length < 2) return [];
  return DIMENSIONS.filter((d) => new Set(judges.map((j) => j[d] ?? '')).size > 1);
}
