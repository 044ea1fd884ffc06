/** The human and JSON summaries of `stimkit analyze power`, and its CSV table. */
import { csvText } from '../core/csv.js';
import type { PowerResult } from './power.js';

const COLUMNS = [
  'model',
  'iterations',
  'replications',
  'expected_net',
  'expected_swing',
  'mean_net',
  'sd_net',
  'mean_swing',
  'mean_zero_share',
  'power_t',
  'power_holm',
  'power_wilcoxon',
] as const;

/**
 * The rows as CSV (one row per model × iterations); every row is of simulated studies, so its
 * `simulated` column is 1.
 */
export function powerCsv(r: PowerResult): string {
  return csvText(
    [...COLUMNS, 'simulated'],
    r.rows.map((row) => [...COLUMNS.map((c) => row[c]), 1]),
  );
}

/** `--json` summary. */
export function powerJson(r: PowerResult) {
  return { ok: true, command: 'analyze power', simulated: true, ...r };
}

/** A table per model: iterations against detection probability, and why mean net differs from true net. */
export function powerHuman(r: PowerResult): string {
  const lines = [
    `power of the net-bias test (alpha ${r.alpha}; ${r.rows[0]?.replications ?? 0} simulated studies per size; bundle ${r.bundle.digest.slice(0, 12)}…, arm ${r.bundle.arm}${r.bundle.generated ? ", the paper's instrument bundled on the fly" : ''}). SIMULATED.`,
    `  ${'model'.padEnd(22)} ${'iter'.padStart(5)} ${'true net'.padStart(9)} ${'swing'.padStart(6)} ${'mean net'.padStart(9)} ${'sd'.padStart(6)} ${'scored 0'.padStart(9)}  ${'P(t)'.padStart(5)} ${'P(Holm)'.padStart(7)} ${'P(W)'.padStart(5)}`,
  ];
  for (const x of r.rows) {
    lines.push(
      `  ${x.model.padEnd(22)} ${String(x.iterations).padStart(5)} ${x.expected_net.toFixed(3).padStart(9)} ${x.expected_swing.toFixed(2).padStart(6)} ${x.mean_net.toFixed(3).padStart(9)} ${x.sd_net.toFixed(3).padStart(6)} ${`${(100 * x.mean_zero_share).toFixed(1)} %`.padStart(9)}  ${x.power_t.toFixed(2).padStart(5)} ${x.power_holm.toFixed(2).padStart(7)} ${x.power_wilcoxon.toFixed(2).padStart(5)}`,
    );
  }
  lines.push(
    '  P(·): share of simulated studies whose test of net bias = 0 has p < alpha (t on cell means; Holm across models; Wilcoxon). For a model with true net 0 it is the false-positive rate.',
    "  true net: the net bias the respondent's parameters imply for the answers it means to give; mean net: over the simulated studies after scoring, where every response scored 0 (column scored 0: neutral answers, refusals, and free text that names no option) pulls net bias toward 0, so mean net lies nearer 0 than true net.",
    r.judge
      ? `  free-text answers were labelled by the models file's simulated judge ${r.judge.name} (accuracy ${r.judge.accuracy}), as stimkit score --judge ${r.judge.name} labels them; the rest of the gap is neutral answers, refusals and judge errors.`
      : '  no judge labelled free-text answers (the models file has no provider: sim judge), so each one scores 0, as stimkit score without --judge scores it; add a sim judge (role: judge) to the models file to label them.',
  );
  return lines.join('\n');
}
