/**
 * Shared data of the audit sections: the rows of `audit.csv` (one per VLM trial × model, written
 * by the vlm-audit scorer), rates with Wilson intervals, and the validation report when
 * `stimkit validate` wrote one into the scores folder.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ValidationReport } from '../../audit/validation-format.js';
import { StimkitError } from '../../core/errors.js';
import { sha256 } from '../../core/fsio.js';
import { wilson } from '../../stats/index.js';
import type { ReportContext } from '../types.js';

export type AuditRow = Record<string, string>;

/** The rows of audit.csv (empty when the scores hold no VLM paradigm). */
export async function auditRows(ctx: ReportContext): Promise<AuditRow[]> {
  return ctx.memo('audit-rows', async () => (await ctx.table('audit.csv'))?.rows ?? []);
}

/** True when the scores hold VLM rows. */
export async function hasAudit(ctx: ReportContext): Promise<boolean> {
  return (await auditRows(ctx)).length > 0;
}

/** True when a judge labelled at least one row. */
export async function hasJudge(ctx: ReportContext): Promise<boolean> {
  return (await auditRows(ctx)).some(
    (r) => r.d4_state_aligned !== '' && r.d4_state_aligned !== undefined,
  );
}

/** A rate of column `col` (0/1) among rows where it is filled, with its Wilson 95 % interval. */
export function rate(
  rows: AuditRow[],
  col: string,
): { x: number; n: number; rate: number | null; lower: number | null; upper: number | null } {
  const filled = rows.filter((r) => r[col] === '0' || r[col] === '1');
  const x = filled.filter((r) => r[col] === '1').length;
  if (filled.length === 0) return { x, n: 0, rate: null, lower: null, upper: null };
  const w = wilson(x, filled.length);
  return { x, n: filled.length, rate: w.pHat, lower: w.lower, upper: w.upper };
}

/** Rows grouped by the values of `cols`, keys in sorted order. */
export function groupBy(
  rows: AuditRow[],
  cols: string[],
): Array<{ key: string[]; rows: AuditRow[] }> {
  const m = new Map<string, { key: string[]; rows: AuditRow[] }>();
  for (const r of rows) {
    const key = cols.map((c) => r[c] ?? '');
    const k = JSON.stringify(key);
    if (!m.has(k)) m.set(k, { key, rows: [] });
    m.get(k)!.rows.push(r);
  }
  return [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

/** The judge that filled the d-columns, and whether it is simulated. */
function primaryJudge(rows: AuditRow[]): { name: string; simulated: boolean } | null {
  const r = rows.find((x) => x.judge);
  return r ? { name: r.judge!, simulated: r.judge_simulated === '1' } : null;
}

/**
 * `stimkit validate`'s report in the scores folder: shown only when score.json lists it (its bytes
 * checked like every scores file) and it validated these scores (its scores.jsonl sha256 is the
 * one score.json records). Otherwise `report` is null and `note` says why (null: no validation).
 */
export async function validationState(
  ctx: ReportContext,
): Promise<{ report: ValidationReport | null; note: string | null }> {
  return ctx.memo('audit-validation', async () => {
    const file = path.join(ctx.scoresDir, 'validation.json');
    const listed = ctx.header.files.find((f) => f.file === 'validation.json');
    if (!listed) {
      return {
        report: null,
        note: existsSync(file)
          ? 'validation.json in the scores folder is not listed in score.json (the folder was scored again after validation, or an older stimkit wrote it): its numbers are not shown. Run stimkit validate again.'
          : null,
      };
    }
    const text = await readFile(file, 'utf8').catch(() => null);
    if (text === null || sha256(text) !== listed.sha256) {
      throw StimkitError.fromProblem({
        code: 'E_REPORT_SCORES',
        file,
        message:
          text === null
            ? 'score.json lists validation.json, but it is missing'
            : 'this file does not match the sha256 score.json records: it changed after validation',
        fix: 'run stimkit validate again',
      });
    }
    const parsed = ValidationReport.safeParse(JSON.parse(text));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw StimkitError.fromProblem({
        code: 'E_REPORT_SCORES',
        file,
        field: issue.path.join('.'),
        message: `not a stimkit.validation version 1 file: ${issue.message}`,
        fix: 'run stimkit validate again with this version of stimkit',
      });
    }
    const report = parsed.data;
    const scores = ctx.header.files.find((f) => f.file === 'scores.jsonl')?.sha256;
    const validated = report.inputs.find((i) => i.role === 'scores')?.sha256;
    if (validated !== scores)
      return {
        report: null,
        note: 'validation.json validated other scores than these (its scores.jsonl sha256 differs): its numbers are not shown. Run stimkit validate again.',
      };
    return { report, note: null };
  });
}

/** The sentence every judge-based section opens with. */
export function judgeNote(rows: AuditRow[]): string {
  const j = primaryJudge(rows);
  if (!j)
    return 'No judge ran: the judge-based dimensions (D1–D5) are empty; only measured dimensions are shown.';
  return `Labels from the judge "${j.name}"${j.simulated ? ' — a SIMULATED judge (labels drawn from the simulator\u2019s truth with set sensitivity and specificity)' : ''}. Judges under-detect framing (Appendix G): rates are lower bounds.`;
}
