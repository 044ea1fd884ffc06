/**
 * The responses of a run's final results, for scoring: the text, the reasoning, the outcome, the
 * route and the simulator's truth of each, as `LedgerResult` (read.ts) gives them, without reading
 * the other columns (usage, the images sent, timings, the trial's design fields, …). The route
 * and reasoning fields are read here for both.
 */
import type { Db } from './open.js';
import {
  currentOutcome,
  REASONING_VISIBILITY,
  routeLabel,
  type Outcome,
  type ReasoningVisibility,
} from './schema.js';

/** One final result as scoring reads it (the fields of `LedgerResult` of the same names). */
export interface LedgerResponse {
  model: string;
  trial_id: string;
  outcome: Outcome;
  text: string | null;
  reasoning: string | null;
  finish_reason: string | null;
  simulated: boolean;
  truth: Record<string, unknown> | null;
  error_class: string | null;
  error_body: string | null;
  route_provider: string | null;
  route: string;
  reasoning_visibility: ReasoningVisibility | null;
  reasoning_tokens: number | null;
}

type Row = Record<string, unknown>;

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A stored visibility, if it is one of the known names (NULL or absent in older ledgers). */
export const visibilityOf = (v: unknown): ReasoningVisibility | null =>
  REASONING_VISIBILITY.find((x) => x === v) ?? null;

/** The route fields of a row (NULL or absent in ledgers older than them). */
export function routeOf(r: Row) {
  const route = {
    route_provider: text(r.route_provider),
    response_id: text(r.response_id),
    request_id: text(r.request_id),
    region: text(r.region),
    endpoint: text(r.endpoint),
  };
  return {
    ...route,
    route: routeLabel({ ...route, simulated: r.simulated === 1 }),
  };
}

/** The columns read; those added after version 1 are read as NULL from a ledger without them. */
const COLUMNS = [
  'model',
  'trial_id',
  'outcome',
  'http_status',
  'response_text',
  'reasoning_text',
  'finish_reason',
  'simulated',
  'truth',
  'error_class',
  'error_body',
  'route_provider',
  'response_id',
  'request_id',
  'region',
  'endpoint',
  'reasoning_visibility',
  'reasoning_tokens',
];

/** What came back, from a results row: the outcome (version 2 names), the text, the reasoning, the finish reason. */
export function answerOf(
  r: Row,
): Pick<LedgerResponse, 'outcome' | 'text' | 'reasoning' | 'finish_reason'> {
  return {
    outcome: currentOutcome(
      r.outcome as string,
      (r.http_status as number | null) ?? null,
      (r.error_class as string | null) ?? null,
    ),
    text: r.response_text as string | null,
    reasoning: r.reasoning_text as string | null,
    finish_reason: r.finish_reason as string | null,
  };
}

/**
 * The final results of run `runId` (of `models` only, when given), ordered by model then trial id
 * as `LedgerReader.results` is (streamed).
 */
export function* responseRows(
  db: Db,
  runId: number,
  models: readonly string[] | null,
): IterableIterator<LedgerResponse> {
  const have = new Set(
    (db.prepare('PRAGMA table_info(results)').all() as Array<{ name: string }>).map((c) => c.name),
  );
  const columns = COLUMNS.map((c) => (have.has(c) ? c : `NULL AS ${c}`)).join(', ');
  const only = models ? ` AND model IN (${models.map(() => '?').join(', ')})` : '';
  const stmt = db.prepare(
    `SELECT ${columns} FROM results WHERE run_id = ?${only} ORDER BY model, trial_id`,
  );
  for (const r of stmt.iterate(runId, ...(models ?? [])) as IterableIterator<Row>) {
    const route = routeOf(r);
    yield {
      model: r.model as string,
      trial_id: r.trial_id as string,
      ...answerOf(r),
      simulated: r.simulated === 1,
      truth: typeof r.truth === 'string' ? (JSON.parse(r.truth) as Row) : null,
      error_class: r.error_class as string | null,
      error_body: r.error_body as string | null,
      route_provider: route.route_provider,
      route: route.route,
      reasoning_visibility: visibilityOf(r.reasoning_visibility),
      reasoning_tokens: typeof r.reasoning_tokens === 'number' ? r.reasoning_tokens : null,
    };
  }
}
