/**
 * The audit's `judges.csv` (written by `stimkit score --judge …`) as review-mode judge labels: one
 * row per VLM trial × model with `trial`, `model` and, per judge NAME, the columns `NAME:status`,
 * `NAME:flags`, `NAME:d1` … `NAME:d5` (0/1, empty when unlabelled or N/A), `NAME:strategy`
 * (`DT1|DT2`), `NAME:confidence` and `NAME:rationale`. Each row becomes one `JudgeLabels` per
 * judge. A judge that labelled the response but left a dimension empty (D3 of a text trial) gives
 * `na` there; a judge without a label (status failed, missing, …) gives no answers, and its status
 * and flags are put before the rationale, so the adjudicator sees them.
 */
import { StimkitError } from '../core/errors.js';
import { DIMENSIONS, type Answer } from './store.js';
import type { JudgeLabels } from './judges.js';

const DIM_COLUMN = /^(.+):(d[1-5])$/;

/** The judges of a wide judges.csv header, in column order (empty when the header is not one). */
export function wideJudges(header: readonly string[]): string[] {
  const names: string[] = [];
  for (const h of header) {
    const m = DIM_COLUMN.exec(h);
    if (m && !names.includes(m[1]!)) names.push(m[1]!);
  }
  return names;
}

const bit = (v: string | undefined): Answer | null =>
  v === '1' ? 'true' : v === '0' ? 'false' : null;

/**
 * Expand a wide judges.csv into one `JudgeLabels` per row × judge. `only` picks judges by name
 * (all when empty); a name the file does not hold is an `E_LABEL_JUDGES` error listing those it has.
 */
export function expandWide(
  file: string,
  rows: Array<Record<string, string>>,
  header: readonly string[],
  only: readonly string[] = [],
): JudgeLabels[] {
  const all = wideJudges(header);
  const unknown = only.filter((n) => !all.includes(n));
  if (unknown.length > 0) {
    throw StimkitError.fromProblem({
      code: 'E_LABEL_JUDGES',
      file,
      message: `no judge ${unknown.join(', ')} in this judges.csv`,
      expected: all.join(', '),
      got: unknown.join(', '),
      fix: `choose among ${all.join(', ')} with --judge NAME`,
    });
  }
  const judges = only.length > 0 ? all.filter((n) => only.includes(n)) : all;
  const out: JudgeLabels[] = [];
  rows.forEach((r, i) => {
    const trial = r.trial_id ?? r.trial ?? '';
    if (!trial || !r.model) {
      throw StimkitError.fromProblem({
        code: 'E_LABEL_JUDGES',
        file,
        line: i + 2,
        message: `row ${i + 1} needs trial (or trial_id) and model`,
        fix: 'give the judges.csv `stimkit score --judge` wrote',
      });
    }
    for (const j of judges) {
      const answers = DIMENSIONS.map((d) => bit(r[`${j}:${d}`]));
      const labelled = answers.some((a) => a !== null);
      const labels = Object.fromEntries(
        DIMENSIONS.map((d, k) => [d, labelled ? (answers[k] ?? 'na') : null]),
      ) as Pick<JudgeLabels, (typeof DIMENSIONS)[number]>;
      const status = r[`${j}:status`] ?? '';
      const flags = (r[`${j}:flags`] ?? '').split('|').filter(Boolean);
      const notes = [
        status && status !== 'ok' ? `status ${status}` : '',
        flags.length > 0 ? `flags ${flags.join(', ')}` : '',
      ].filter(Boolean);
      const rationale = [notes.length > 0 ? `(${notes.join('; ')})` : '', r[`${j}:rationale`] ?? '']
        .filter(Boolean)
        .join(' ');
      out.push({
        judge: j,
        trial_id: trial,
        model: r.model,
        ...labels,
        strategies: (r[`${j}:strategy`] ?? '').split('|').filter(Boolean),
        rationale,
      });
    }
  });
  return out;
}
