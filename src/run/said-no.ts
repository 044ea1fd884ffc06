/**
 * "Who said no": outcome counts per model × route × language, with Wilson 95 % intervals of the
 * rates of provider blocks, model refusals and suppressed replies (ledger/schema.ts Outcome).
 * The denominator is every final result that is not `failed` (a failed trial has no reply, so no
 * one said anything). `run`'s summary counts the run's ledger; the report counts trials.csv.
 */
import type { Db } from '../ledger/open.js';
import { currentOutcome, routeLabel, type Outcome } from '../ledger/schema.js';
import { wilson } from '../stats/wilson.js';

/** The outcomes that say who said no, in the order they are reported. */
export const SAID_NO = ['provider_block', 'model_refusal', 'suppressed'] as const;

/** Counts of one model × route × language. */
export interface SaidNoCounts {
  model: string;
  route: string;
  lang: string;
  /** Final results that are not `failed`: the denominator of every rate. */
  n: number;
  outcomes: Record<Outcome, number>;
}

/** A rate with its Wilson 95 % interval (null bounds when n = 0). */
export interface Rate {
  x: number;
  n: number;
  rate: number | null;
  lower: number | null;
  upper: number | null;
}

/** The rate of `x` in `n` with its Wilson 95 % interval. */
export function rateOf(x: number, n: number): Rate {
  if (n === 0) return { x, n, rate: null, lower: null, upper: null };
  const w = wilson(x, n);
  return { x, n, rate: w.pHat, lower: w.lower, upper: w.upper };
}

const zero = (): Record<Outcome, number> => ({
  answer: 0,
  provider_block: 0,
  model_refusal: 0,
  suppressed: 0,
  length: 0,
  failed: 0,
});

/** Count outcomes per model × route × language, sorted by model, route, language. */
export function countSaidNo(
  rows: Iterable<{ model: string; route: string; lang: string; outcome: Outcome }>,
): SaidNoCounts[] {
  const by = new Map<string, SaidNoCounts>();
  for (const r of rows) {
    const key = JSON.stringify([r.model, r.route, r.lang]);
    let c = by.get(key);
    if (!c) {
      c = { model: r.model, route: r.route, lang: r.lang, n: 0, outcomes: zero() };
      by.set(key, c);
    }
    c.outcomes[r.outcome] += 1;
    if (r.outcome !== 'failed') c.n += 1;
  }
  return [...by.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
}

/** The rates of one group: each SAID_NO outcome among its n. */
export function saidNoRates(c: SaidNoCounts): Record<(typeof SAID_NO)[number], Rate> {
  return {
    provider_block: rateOf(c.outcomes.provider_block, c.n),
    model_refusal: rateOf(c.outcomes.model_refusal, c.n),
    suppressed: rateOf(c.outcomes.suppressed, c.n),
  };
}

/** The counts of run `runId` of a ledger, for `models` (every result the run holds for them). */
export function ledgerSaidNo(db: Db, runId: number, models: readonly string[]): SaidNoCounts[] {
  const wanted = new Set(models);
  const rows = db
    .prepare(
      `SELECT r.model, r.outcome, r.http_status, r.error_class, r.route_provider, r.endpoint, r.simulated, t.lang
       FROM results r LEFT JOIN trials t ON t.run_id = r.run_id AND t.trial_id = r.trial_id
       WHERE r.run_id = ?`,
    )
    .all(runId) as Array<{
    model: string;
    outcome: string;
    http_status: number | null;
    error_class: string | null;
    route_provider: string | null;
    endpoint: string | null;
    simulated: number;
    lang: string | null;
  }>;
  return countSaidNo(
    rows
      .filter((r) => wanted.has(r.model))
      .map((r) => ({
        model: r.model,
        route: routeLabel({ ...r, simulated: r.simulated === 1 }),
        lang: r.lang ?? '',
        outcome: currentOutcome(r.outcome, r.http_status, r.error_class),
      })),
  );
}

const pct = (v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(1)} %`);

/** The `--json` form of the counts: n, every outcome's count, and the three rates. */
export function saidNoJson(counts: readonly SaidNoCounts[]) {
  return counts.map((c) => ({
    model: c.model,
    route: c.route,
    lang: c.lang,
    n: c.n,
    outcomes: c.outcomes,
    rates: saidNoRates(c),
  }));
}

/** The summary's lines: one per model × route × language with a block, refusal or suppression. */
export function saidNoLines(counts: readonly SaidNoCounts[]): string[] {
  if (!counts.some((c) => SAID_NO.some((o) => c.outcomes[o] > 0))) return [];
  const lines = ['who said no (model × route × language; rate of n replies, Wilson 95 %):'];
  for (const c of counts) {
    const rates = saidNoRates(c);
    const parts = SAID_NO.map((o) => {
      const r = rates[o];
      return `${o} ${r.x} (${pct(r.rate)}, ${pct(r.lower)}–${pct(r.upper)})`;
    });
    lines.push(`  ${c.model} via ${c.route} [${c.lang}]: n ${c.n}; ${parts.join(', ')}`);
  }
  return lines;
}
