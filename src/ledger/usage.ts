/**
 * What each final result of a run used and cost (`results.usage`, `cost_usd`): what
 * `LedgerReader.results` gives for them, without reading the other columns (the response text,
 * the simulator's truth, the trial's design fields, …), for the cost table.
 */
import type { Db } from './open.js';

/** One result's usage and cost. */
export interface ResultUsage {
  model: string;
  /** The usage the server reported (JSON as stored), or null. */
  usage: Record<string, unknown> | null;
  /** The result's cost in USD, or null when unpriced or older than the column. */
  cost_usd: number | null;
}

/** The results of run `runId`, ordered by model then trial id as `results` is (streamed). */
export function* usageRows(db: Db, runId: number): IterableIterator<ResultUsage> {
  // a ledger older than cost_usd, opened read-only, has none (readers take it as NULL)
  const columns = db.prepare('PRAGMA table_info(results)').all() as Array<{ name: string }>;
  const cost = columns.some((c) => c.name === 'cost_usd') ? 'cost_usd' : 'NULL AS cost_usd';
  const stmt = db.prepare(
    `SELECT model, usage, ${cost} FROM results WHERE run_id = ? ORDER BY model, trial_id`,
  );
  for (const r of stmt.iterate(runId) as IterableIterator<Record<string, unknown>>)
    yield {
      model: r.model as string,
      usage: typeof r.usage === 'string' ? (JSON.parse(r.usage) as Record<string, unknown>) : null,
      cost_usd: typeof r.cost_usd === 'number' ? r.cost_usd : null,
    };
}
