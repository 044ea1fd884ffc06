/**
 * A result row as the ledger's INSERT binds it: every column by name (`@column`), so that a value
 * cannot land in its neighbour's column. A (run, model, trial) gets at most one result: the
 * insert only replaces a `failed` one (a later `--retry-failed` success), never a kept one.
 */

/** The columns of a result row, each bound by name (`@column`) in the INSERT. */
const RESULT_COLUMNS = [
  'run_id',
  'model',
  'trial_id',
  'bundle_digest',
  'outcome',
  'request_sha256',
  'dropped',
  'response_text',
  'reasoning_text',
  'finish_reason',
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
  'usage',
  'served_model',
  'system_fingerprint',
  'simulated',
  'truth',
  'error_class',
  'http_status',
  'error_body',
  'attempts',
  'latency_ms',
  'finished_at',
  'sent_images',
  'cost_usd',
  'route_provider',
  'response_id',
  'request_id',
  'region',
  'endpoint',
  'reasoning_visibility',
  'reasoning_tokens',
] as const;

/** A result row as bound to the INSERT: a value (or NULL) for every column, by name. */
export type ResultRow = Record<(typeof RESULT_COLUMNS)[number], string | number | null>;

/** Insert a result row (or replace a failed one). */
export const INSERT_RESULT = `INSERT INTO results (${RESULT_COLUMNS.join(', ')})
       VALUES (${RESULT_COLUMNS.map((c) => `@${c}`).join(', ')})
       ON CONFLICT (run_id, model, trial_id) DO UPDATE SET
         outcome = excluded.outcome, request_sha256 = excluded.request_sha256, dropped = excluded.dropped,
         response_text = excluded.response_text, reasoning_text = excluded.reasoning_text, finish_reason = excluded.finish_reason,
         prompt_tokens = excluded.prompt_tokens, completion_tokens = excluded.completion_tokens, total_tokens = excluded.total_tokens,
         usage = excluded.usage, served_model = excluded.served_model, system_fingerprint = excluded.system_fingerprint,
         simulated = excluded.simulated, truth = excluded.truth, error_class = excluded.error_class, http_status = excluded.http_status,
         error_body = excluded.error_body, attempts = results.attempts + excluded.attempts, latency_ms = excluded.latency_ms,
         finished_at = excluded.finished_at, sent_images = excluded.sent_images, cost_usd = excluded.cost_usd,
         route_provider = excluded.route_provider, response_id = excluded.response_id, request_id = excluded.request_id,
         region = excluded.region, endpoint = excluded.endpoint,
         reasoning_visibility = excluded.reasoning_visibility, reasoning_tokens = excluded.reasoning_tokens
       WHERE results.outcome = 'failed'`;
