/**
 * `cost.csv` of a scores folder: what the scored run cost per model, respondents from the run
 * ledger and judges from the judge ledger (every judge run of the scored respondent run, labelled
 * `<run>/…`), from the tokens and `cost_usd` each result recorded (src/run/cost.ts). Read by the
 * report's cost section. Same ledgers → same bytes (sums rounded to 1e-9 USD, fixed row order).
 */
import { existsSync } from 'node:fs';
import { openLedger, type LedgerReader } from '../ledger/read.js';
import { billedTokens } from '../run/cost.js';
import { csvText, type Cell, type CsvWriteOptions } from '../core/csv.js';

/** The file name in the scores folder. */
export const COST_FILE = 'cost.csv';

/** Its columns (docs/formats/scores.md, "cost.csv"). */
const COST_COLUMNS = [
  'model',
  'role',
  'run',
  'results',
  'with_usage',
  'input_tokens',
  'cached_input_tokens',
  'output_tokens',
  'cost_usd',
  'unpriced',
] as const;

interface Acc {
  results: number;
  withUsage: number;
  input: number;
  cached: number;
  output: number;
  usd: number;
  priced: number;
}

const r9 = (v: number) => Math.round(v * 1e9) / 1e9;

/** One row per model of `run` in an open ledger. */
function rowsOf(reader: LedgerReader, run: string, role: string): Cell[][] {
  const by = new Map<string, Acc>();
  for (const r of reader.usage(run)) {
    const a = by.get(r.model) ?? {
      results: 0,
      withUsage: 0,
      input: 0,
      cached: 0,
      output: 0,
      usd: 0,
      priced: 0,
    };
    by.set(r.model, a);
    a.results++;
    const t = billedTokens(r.usage);
    if (t) {
      a.withUsage++;
      a.input += t.input + t.cacheWrite;
      a.cached += t.cachedInput;
      a.output += t.output;
    }
    if (r.cost_usd !== null) {
      a.usd += r.cost_usd;
      a.priced++;
    }
  }
  return [...by.entries()]
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([model, a]) => [
      model,
      role,
      run,
      a.results,
      a.withUsage,
      a.input,
      a.cached,
      a.output,
      a.priced > 0 ? r9(a.usd) : null,
      a.withUsage - Math.min(a.withUsage, a.priced),
    ]);
}

/**
 * The cost table of respondent run `run` in `ledger`, with the judges of that run in
 * `judgeLedger` (when it exists).
 */
export function costCsv(
  ledger: string,
  run: string,
  judgeLedger: string | null,
  csv: CsvWriteOptions = {},
): string {
  const rows: Cell[][] = [];
  const main = openLedger(ledger);
  try {
    rows.push(...rowsOf(main, run, 'respondent'));
  } finally {
    main.close();
  }
  if (judgeLedger && existsSync(judgeLedger)) {
    const judges = openLedger(judgeLedger);
    try {
      for (const jr of judges.runs().filter((x) => x.label.startsWith(`${run}/`)))
        rows.push(...rowsOf(judges, jr.label, 'judge'));
    } finally {
      judges.close();
    }
  }
  return csvText(COST_COLUMNS, rows, csv);
}
