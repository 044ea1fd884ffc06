/**
 * `stimkit analyze reasoning <reasoning.csv> [--out DIR]`: the reasoning channel's rates per
 * model × language × paradigm and, with the thinking factor, McNemar's test of thinking on
 * against off (src/analyze/reasoning.ts). With --out, the two tables are written as CSV into DIR
 * (`reasoning-rates.csv`, and `thinking-mcnemar.csv` when the factor is present).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { EXIT, StimkitError } from '../core/errors.js';
import { csvText } from '../core/csv.js';
import { writeFileAtomic } from '../core/fsio.js';
import {
  ratesCsvRows,
  reasoningRates,
  thinkingCsvRows,
  thinkingTests,
} from '../analyze/reasoning.js';
import { readTable } from '../analyze/table.js';
import { simulatedLine, simulatedRows, withSimulatedColumn } from '../analyze/simulated.js';
import type { CommandResult } from '../cli/output.js';
import { TOOL } from '../core/tool.js';

/** Files `--out` writes. */
const REASONING_FILES = {
  rates: 'reasoning-rates.csv',
  thinking: 'thinking-mcnemar.csv',
} as const;

const NEEDED = ['model', 'lang', 'paradigm', 'thinking', 'pair', 'reasoning_visibility'];

const pct = (v: number | null) => (v === null ? '–' : `${(100 * v).toFixed(1)} %`);

/** Run the analysis on `file`; write the CSV tables into `out` when given. */
export async function analyzeReasoning(file: string, out?: string): Promise<CommandResult> {
  const table = readTable(file);
  const missing = NEEDED.filter((c) => !table.columns.includes(c));
  if (missing.length > 0)
    throw StimkitError.fromProblem({
      code: 'E_ANALYZE_COLUMN',
      file,
      line: 1,
      field: missing.join(', '),
      message: 'analyze reasoning reads the reasoning.csv of a scores folder',
      expected: `columns ${NEEDED.join(', ')}`,
      got: table.columns.join(', '),
      fix: 'pass the reasoning.csv that `stimkit score` writes (score again with this version)',
    });
  const rates = reasoningRates(table.rows);
  const tests = thinkingTests(table.rows);
  if (out) {
    await mkdir(out, { recursive: true });
    const r = withSimulatedColumn(ratesCsvRows(rates), table);
    await writeFileAtomic(path.join(out, REASONING_FILES.rates), csvText(r.header, r.rows));
    if (tests.length > 0) {
      const t = withSimulatedColumn(thinkingCsvRows(tests), table);
      await writeFileAtomic(path.join(out, REASONING_FILES.thinking), csvText(t.header, t.rows));
    }
  }
  const summary = {
    format: 'stimkit.analyze.reasoning',
    version: 1,
    tool: { ...TOOL },
    input: { file, sha256: table.sha256, rows: table.n },
    params: {
      conf: 0.95,
      interval: 'wilson',
      test: 'mcnemar (exact, mid-p, chi2 with continuity correction)',
    },
    rates,
    thinking: tests,
    simulated: simulatedRows(table),
  };
  const lines = rates.map(
    (r) =>
      `${r.model} ${r.lang} ${r.paradigm}: thought suppressed ${r.thought_suppressed.x}/${r.thought_suppressed.n} (${pct(r.thought_suppressed.rate)}), reasoning exceeds answer ${r.reasoning_exceeds_answer.x}/${r.reasoning_exceeds_answer.n} (${pct(r.reasoning_exceeds_answer.rate)})`,
  );
  for (const t of tests)
    lines.push(
      `thinking on vs off, ${t.model} ${t.lang} ${t.outcome}: ${t.pairs} pairs, b = ${t.b} (on only), c = ${t.c} (off only), exact p = ${t.p_exact === null ? '— (no complete pair)' : t.p_exact.toPrecision(3)}`,
    );
  return {
    summary,
    human: simulatedLine(summary.simulated) + `${lines.join('\n')}\n`,
    exitCode: EXIT.ok,
  };
}
