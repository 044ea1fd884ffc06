/** The lines `run` prints about images sent, estimates, costs and the budget (summary.ts calls these). */
import type { Budget } from './budget.js';
import type { DryRunBudget } from './dry-run.js';
import type { ModelEstimate } from './estimate.js';
import type { ModelStats } from './model-stats.js';

/** USD for people: cents for large sums, more digits for small ones. */
export function usd(v: number): string {
  if (v === 0) return '$0';
  if (v >= 100) return `$${v.toFixed(2)}`;
  if (v >= 0.01) return `$${v.toFixed(4)}`;
  return `$${v.toPrecision(3)}`;
}

const int = (v: number) => v.toLocaleString('en-US');
const kb = (b: number) =>
  b >= 1024 * 1024 ? `${(b / 1024 / 1024).toFixed(1)} MB` : `${(b / 1024).toFixed(1)} KB`;
const span = (lo: string, hi: string) => (lo === hi ? lo : `${lo}–${hi}`);
const upTo = (v: number | null, f: (x: number) => string) => (v === null ? 'no upper bound' : f(v));

/** The dry run's lines about one model's images and estimate (indented under the model). */
export function estimateLines(e: ModelEstimate | null): string[] {
  if (!e) return [];
  const lines: string[] = [];
  const i = e.images;
  if (i)
    lines.push(
      `    images sent: ${int(i.sent)} (${i.distinct} distinct) as ${i.format}, ${i.width && i.height ? `${span(`${i.width.min}`, `${i.width.max}`)} × ${span(`${i.height.min}`, `${i.height.max}`)} px` : 'size unknown (not PNG)'}, ${span(kb(i.bytes.min), kb(i.bytes.max))} each, ${kb(i.bytes.total)} in all`,
    );
  if (e.tokens && e.cost_usd) {
    const t = e.tokens;
    lines.push(
      `    estimate: input ${int(t.input.low)}–${upTo(t.input.high, int)} tokens, output ${int(t.output.low)}–${upTo(t.output.high, int)} tokens; cost ${usd(e.cost_usd.low)}–${upTo(e.cost_usd.high, usd)}` +
        (e.batch_cost_usd
          ? ` (through a batch file ${usd(e.batch_cost_usd.low)}–${upTo(e.batch_cost_usd.high, usd)})`
          : ''),
      `    text tokens counted with ${e.text_tokens}`,
    );
    const c = e.conversations;
    if (c)
      lines.push(
        `    pressure: ${int(c.later_turns)} later turn(s) sent with the conversation so far; each of the ${int(c.earlier_replies)} earlier replies they carry is counted at its output cap (max_tokens), so this part is an upper bound`,
      );
    for (const why of e.unbounded) lines.push(`    no upper bound: ${why}`);
  } else lines.push('    cost: no price block (add `price:` to the models file to estimate it)');
  return lines;
}

/** The text before the estimates of a dry run: what low and high mean. */
export const ESTIMATE_NOTE =
  'estimates are ranges: low = text at its low token count, no output; high = text at its high count plus chat framing, every reply as long as max_tokens allows';

/** `, $0.0123 now ($0.4567 in this run)` for a model's summary line; empty when nothing is priced. */
export function costText(m: ModelStats, inRun: number): string {
  if (m.cost_usd === 0 && inRun === 0 && m.unpriced === 0) return '';
  const unpriced = m.unpriced > 0 ? `, ${m.unpriced} result(s) unpriced (no price block)` : '';
  return `, ${usd(m.cost_usd)} now (${usd(inRun)} in this run)${unpriced}`;
}

/** The summary's budget lines. */
export function budgetLines(b: Budget | null, stopped: boolean): string[] {
  if (!b) return [];
  const lines = [
    `budget ${usd(b.usd)}: ${usd(b.spent_before)} recorded before this invocation, up to ${usd(b.pending_high)} estimated for the trials pending`,
  ];
  if (stopped)
    lines.push(
      'budget reached: no new requests were sent; those in flight finished and were recorded. Run again with a higher --budget to continue',
    );
  return lines;
}

/** The dry run's budget line: whether the upper estimate fits (`run --budget` refuses when not). */
export function dryBudgetLine(b: DryRunBudget | null): string[] {
  if (!b) return [];
  if (b.fits === null)
    return [
      `budget ${usd(b.usd)}: cannot be checked (${b.why}); run --budget would refuse to start`,
    ];
  return [
    b.fits
      ? `budget ${usd(b.usd)}: the upper estimate ${usd(b.upper_usd!)} fits (every selected trial counted; a continued run counts what is recorded plus what is pending)`
      : `budget ${usd(b.usd)}: the upper estimate ${usd(b.upper_usd!)} does NOT fit; run --budget would refuse to start (send fewer trials, lower max_tokens or raise the budget)`,
  ];
}
