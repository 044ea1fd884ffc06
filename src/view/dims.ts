/**
 * The six audit dimensions of a response, as the viewer's lists show them: read from the loosely
 * read score rows (`stimkit score`'s audit.csv / trials.csv columns, the labels CSV of `stimkit
 * label export`, or short names such as `d4` or `judge.d4`), with the judge that decided them, and
 * which rows are simulated. Also which fields are labels (the "label is true" filter offers only
 * those).
 */
import { html, type Html } from '../core/html.js';
import { truthy, type ScoreRow } from './scores.js';

/** One column of the list: its header, the fields it may come from (first present wins). */
export interface Dim {
  code: string;
  /** Header words. */
  name: string;
  fields: string[];
  /** The value that stands out (a refusal, a failure, framing); null for D6 (a number). */
  flag: 'true' | 'false' | null;
}

export const DIMS: Dim[] = [
  { code: 'D1', name: 'refusal', fields: ['d1_refusal', 'd1', 'judge.d1'], flag: 'true' },
  { code: 'D2', name: 'integrity', fields: ['d2_integrity', 'd2', 'judge.d2'], flag: 'false' },
  {
    code: 'D3',
    name: 'grounded',
    fields: ['d3_grounded', 'd3_grounding', 'd3', 'judge.d3'],
    flag: 'false',
  },
  {
    code: 'D4',
    name: 'state-aligned',
    fields: ['d4_state_aligned', 'd4', 'judge.d4'],
    flag: 'true',
  },
  {
    code: 'D5',
    name: 'same language',
    fields: ['d5_language_consistent', 'd5_language', 'd5', 'judge.d5'],
    flag: 'false',
  },
  {
    code: 'D6',
    name: 'length',
    fields: ['d6_length_clean', 'd6_length_raw', 'd6'],
    flag: null,
  },
];

/** A dimension's value in a row: `true`, `false`, `na`, a number (D6), or null when absent. */
export interface DimValue {
  field: string | null;
  value: string | null;
}

const FALSY = new Set(['false', '0', 'no', 'n', 'f']);

/** The value of `dim` in `row`, normalised to true / false / na (D6: the number). */
export function dimValue(row: ScoreRow, dim: Dim): DimValue {
  const field = dim.fields.find((f) => row.labels[f] !== undefined) ?? null;
  if (field === null) return { field, value: null };
  const raw = row.labels[field]!.trim();
  if (dim.flag === null) return { field, value: raw };
  const v = raw.toLowerCase();
  return { field, value: truthy(v) ? 'true' : FALSY.has(v) ? 'false' : v };
}

const SHOWN: Record<string, string> = { true: 'yes', false: 'no', na: 'n/a' };

/** A dimension's value as the pages show it: yes / no / n/a, D6's number, — when absent. */
export const shownValue = (value: string | null): string =>
  value === null ? '—' : (SHOWN[value] ?? value);

/** A keyed stance with its sign (`+2`, `-1`, `0`). */
export const signed = (stance: string): string =>
  /^[1-9]/.test(stance.trim()) ? `+${stance.trim()}` : stance.trim();

/** The judge whose labels decided the dimensions (`judge` column), if any. */
export const decidingJudge = (row: ScoreRow): string | null =>
  row.labels.judge ?? row.labels['parse.judge'] ?? null;

/** The forced-choice answer of an instrument row (label and keyed stance), if any. */
export function forcedChoice(row: ScoreRow): { label: string; stance: string | null } | null {
  const label = row.labels.label ?? row.labels['parse.label'];
  return label === undefined ? null : { label, stance: row.labels.stance ?? null };
}

/** Whether the row came from a simulated respondent. */
export const isSimulated = (row: ScoreRow): boolean => truthy(row.labels.simulated);

/** Whether its labels came from a simulated judge. */
export const judgeSimulated = (row: ScoreRow): boolean =>
  truthy(row.labels.judge_simulated) || truthy(row.labels['parse.judge_simulated']);

const BOOLEAN = new Set(['true', 'false', '0', '1']);
/** Flags about a row rather than labels of its response. */
const NOT_LABELS = /(^|[._:])simulated$|^china_origin$/;

/**
 * The fields that are labels: yes/no values only (true/false or 0/1), true in at least one row,
 * and not a flag about the row (`simulated`, `china_origin`). Sorted.
 */
export function labelFields(rows: ScoreRow[]): string[] {
  const seenTrue = new Set<string>();
  const notBoolean = new Set<string>();
  for (const r of rows) {
    for (const [k, v] of Object.entries(r.labels)) {
      const t = v.trim().toLowerCase();
      if (!BOOLEAN.has(t)) notBoolean.add(k);
      else if (t === 'true' || t === '1') seenTrue.add(k);
    }
  }
  return [...seenTrue].filter((k) => !notBoolean.has(k) && !NOT_LABELS.test(k)).sort();
}

/**
 * Who answered and how: the route that served the response and its outcome when not a plain
 * answer (scores written from a ledger carry both), e.g. `via BlockCo · provider_block`.
 */
export function routeNote(s: { labels: Record<string, string> }): string | null {
  const route = s.labels.route;
  const outcome = s.labels.outcome;
  const parts = [
    route ? `via ${route}` : null,
    outcome && outcome !== 'answer' ? outcome : null,
  ].filter((x): x is string => x !== null);
  return parts.length ? parts.join(' · ') : null;
}

/**
 * The warning on one response whose text is not the one scored (its sha256 differs from the
 * `response_sha256` scores.jsonl recorded, or the text is gone): its labels are of the old text.
 */
export function changedNote(s: ScoreRow): Html | null {
  const c = s.changed;
  if (!c) return null;
  const now = c.now === null ? 'no text now' : `sha256 ${c.now.slice(0, 12)}… now`;
  return html`<p class="banner warn changed-response" role="note"><strong>CHANGED SINCE SCORING</strong> · this response is not the text that was scored (sha256 ${c.scored.slice(0, 12)}… scored, ${now}): its labels are of the old text</p>`;
}
