/**
 * `stimkit analyze rates`: n, successes, rate and Wilson CI of a 0/1 outcome per group; with a
 * given sensitivity and specificity of the labeller (e.g. an LLM judge's, from a validation or a
 * paper), also the Rogan–Gladen corrected rate with the Wilson interval mapped through the
 * correction (the audit paper's Appendix G).
 */
import { correctPrevalence } from '../audit/attenuation.js';
import { wilson } from '../stats/index.js';
import { completeRows, numericColumn, requireFilled } from './columns.js';
import { simulatedCount, simulatedFlags, type SimulatedRows } from './simulated.js';
import type { Table } from './table.js';

/** One group's rate. */
interface RateRow {
  /** the value of each --by column */
  group: Record<string, string>;
  n: number;
  successes: number;
  rate: number;
  lower: number;
  upper: number;
  /** Whether any of the group's rows is simulated; null when the table has no `simulated` column. */
  simulated: boolean | null;
  /** With a given sensitivity and specificity: the Rogan–Gladen rate, clipped to [0, 1], and its interval. */
  corrected?: { rate: number; lower: number; upper: number; clipped: boolean };
}

/** What `analyze rates` returns. */
export interface RatesReport {
  format: 'stimkit.analyze.rates';
  version: 1;
  /** `rows`: rows counted; `dropped`: rows left out as incomplete (with `complete`). */
  input: { file: string; sha256: string; rows: number; dropped: number };
  params: {
    outcome: string;
    by: string[];
    conf: number;
    interval: 'wilson';
    complete: boolean;
    correction: { sensitivity: number; specificity: number } | null;
  };
  rows: RateRow[];
  /** Rows counted that are simulated (the table's `simulated` column); null when it has none. */
  simulated: SimulatedRows | null;
}

/** Rates per combination of the --by columns, in sorted order of the group values. */
export function ratesTable(
  given: Table,
  params: {
    outcome: string;
    by: string[];
    conf?: number;
    complete?: boolean;
    correction?: { sensitivity: number; specificity: number } | null;
  },
): RatesReport {
  const conf = params.conf ?? 0.95;
  const { table, dropped } = params.complete
    ? completeRows(given, [params.outcome, ...params.by], 'analyze rates')
    : { table: given, dropped: 0 };
  requireFilled(table, [params.outcome, ...params.by], 'analyze rates');
  const y = numericColumn(table, params.outcome, true);
  const sim = simulatedFlags(table);
  const groups = new Map<
    string,
    { group: Record<string, string>; n: number; x: number; s: number }
  >();
  table.rows.forEach((r, i) => {
    const group = Object.fromEntries(params.by.map((b) => [b, r[b]!]));
    const key = JSON.stringify(params.by.map((b) => r[b]));
    const g = groups.get(key) ?? { group, n: 0, x: 0, s: 0 };
    g.n++;
    g.x += y[i]!;
    if (sim?.[i]) g.s++;
    groups.set(key, g);
  });
  const rows = [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, g]) => {
      const w = wilson(g.x, g.n, conf);
      const row: RateRow = {
        group: g.group,
        n: g.n,
        successes: g.x,
        rate: w.pHat,
        lower: w.lower,
        upper: w.upper,
        simulated: sim ? g.s > 0 : null,
      };
      if (params.correction) {
        const c = correctPrevalence(
          g.x,
          g.n,
          { value: params.correction.sensitivity },
          { value: params.correction.specificity },
          conf,
        );
        row.corrected = { rate: c.corrected, lower: c.lower, upper: c.upper, clipped: c.clipped };
      }
      return row;
    });
  return {
    format: 'stimkit.analyze.rates',
    version: 1,
    input: { file: table.file, sha256: table.sha256, rows: table.n, dropped },
    params: {
      outcome: params.outcome,
      by: params.by,
      conf,
      interval: 'wilson',
      complete: params.complete ?? false,
      correction: params.correction ?? null,
    },
    rows,
    simulated: simulatedCount(sim),
  };
}
