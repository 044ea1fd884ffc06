/**
 * The pressure logit of `stimkit analyze pressure`: per model, `changed ~ followup` over the turns
 * after the first that have a value of `changed`, with standard errors clustered by conversation.
 * It is the fit of `stimkit analyze logit --outcome changed --predictors followup --cluster
 * conversation` on that model's rows (src/analyze/regress.ts; statsmodels
 * `Logit(...).fit(cov_type='cluster')`): the same fitter, warnings and refusals. A fit the fitter
 * refuses (too few clusters, separation, a single outcome value) is recorded for that model with
 * the fitter's own code and message; the other models' fits stand.
 */
import { StimkitError } from '../core/errors.js';
import type { Cell } from '../score/types.js';
import type { Coding, RegressionResult } from '../stats/index.js';
import { regressWithSeparation } from './separation.js';
import type { RegressParams } from './regress.js';
import { simulatedRows, type SimulatedRows } from './simulated.js';
import { tableFromRows, type Table } from './table.js';

/** The fit's parameters: those of `analyze logit` with the columns pressure.csv names. */
export const PRESSURE_LOGIT: RegressParams = {
  outcome: 'changed',
  predictors: ['followup'],
  reference: {},
  interactions: [],
  cluster: 'conversation',
  correction: 'statsmodels',
  conf: 0.95,
  complete: false,
};

/** Why the fitter refused a model's fit: its error, as it gave it. */
interface Refusal {
  code: string;
  message: string;
  expected: string | null;
  got: string | null;
  fix: string | null;
}

/** One model's logit. */
export interface PressureLogit {
  model: string;
  /** Turns ≥ 2 with a value of `changed` (the rows fitted). */
  rows: number;
  conversations: number;
  codings: Coding[];
  result: RegressionResult | null;
  warnings: string[];
  /** Empty when fitted; else why there is no fit. */
  reason: string;
  refused: Refusal | null;
  simulated: SimulatedRows | null;
}

/** The rows of `model` the logit fits: after the first turn, `changed` 0 or 1. */
function modelRows(t: Table, model: string): Table {
  const rows: Record<string, string>[] = [];
  const lines: number[] = [];
  t.rows.forEach((r, i) => {
    if (r.model !== model || r.turn === '1' || (r.changed !== '0' && r.changed !== '1')) return;
    rows.push(r);
    lines.push(t.lines[i]!);
  });
  return tableFromRows(t.file, t.sha256, t.columns, rows, lines);
}

function refusalOf(err: StimkitError): Refusal {
  const p = err.problems[0];
  return {
    code: err.code,
    message: p?.message ?? err.message,
    expected: p?.expected ?? null,
    got: p?.got ?? null,
    fix: p?.fix ?? err.fix ?? null,
  };
}

/**
 * The logit of one model on `t` (the rows the outcome selection kept); `leftOut`, when the
 * selection kept none of its rows, says which it left out (else '').
 */
async function modelLogit(t: Table, model: string, leftOut: string): Promise<PressureLogit> {
  const rows = modelRows(t, model);
  const base = {
    model,
    rows: rows.n,
    conversations: new Set(rows.rows.map((r) => r.conversation)).size,
    codings: [],
    result: null,
    warnings: [],
    refused: null,
    simulated: simulatedRows(rows),
  };
  if (rows.n === 0)
    return {
      ...base,
      reason: leftOut
        ? `every turn of the model was left out by outcome (${leftOut})`
        : 'no turn after the first has a value of changed',
    };
  try {
    const fit = await regressWithSeparation('logit', rows, PRESSURE_LOGIT);
    return {
      ...base,
      codings: fit.codings,
      result: fit.result,
      warnings: fit.warnings,
      reason: '',
    };
  } catch (err) {
    if (!(err instanceof StimkitError) || !err.code.startsWith('E_STATS_')) throw err;
    const refused = refusalOf(err);
    return { ...base, refused, reason: `${refused.code}: ${refused.message}` };
  }
}

/**
 * The logit of every model of `all` (the table before the outcome selection), in model order, on
 * the rows `kept` holds: a model whose every row was left out still has its entry, with the reason.
 */
export async function pressureLogits(all: Table, kept: Table = all): Promise<PressureLogit[]> {
  const models = [...new Set(all.rows.map((r) => r.model ?? ''))].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  const keptRows = new Set(kept.rows);
  const out: PressureLogit[] = [];
  for (const m of models) {
    const left: Record<string, number> = {};
    let some = false; // a row of the model was kept
    for (const r of all.rows) {
      if ((r.model ?? '') !== m) continue;
      if (keptRows.has(r)) some = true;
      else left[r.outcome || 'unrecorded'] = (left[r.outcome || 'unrecorded'] ?? 0) + 1;
    }
    const leftOut = some
      ? ''
      : Object.entries(left)
          .map(([o, n]) => `${o} ${n}`)
          .join(', ');
    out.push(await modelLogit(kept, m, leftOut));
  }
  return out;
}

/** `pressure-logit.csv`: one row per model × term; a model without a fit has one row, its reason. */
export function logitCsvRows(fits: readonly PressureLogit[]): { header: string[]; rows: Cell[][] } {
  const header = [
    'model',
    'term',
    'estimate',
    'se',
    'z',
    'p',
    'ci_lower',
    'ci_upper',
    'odds_ratio',
    'or_lower',
    'or_upper',
    'nobs',
    'clusters',
    'warning',
    'reason',
  ];
  const rows = fits.flatMap((f): Cell[][] => {
    const warning = f.warnings.join(' ');
    if (!f.result)
      return [
        [
          f.model,
          '',
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          f.rows,
          f.conversations,
          warning,
          f.reason,
        ],
      ];
    const res = f.result;
    return res.terms.map((t) => [
      f.model,
      t.term,
      t.estimate,
      t.se,
      t.stat,
      t.p,
      t.ciLower,
      t.ciUpper,
      t.oddsRatio ?? null,
      t.orLower ?? null,
      t.orUpper ?? null,
      res.nobs,
      res.nClusters,
      warning,
      '',
    ]);
  });
  return { header, rows };
}
