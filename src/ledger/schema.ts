/**
 * The ledger's tables (`stimkit.ledger`, version 4; versions 1 to 3 are read, and upgraded when a
 * run opens them for writing). docs/formats/ledger.md describes every
 * column for readers using sqlite3 or pandas. A ledger holds one or more runs; each run belongs
 * to one bundle digest; each (run, model, trial) has at most one final result.
 */

export const LEDGER_FORMAT = 'stimkit.ledger';
export const LEDGER_VERSION = 4;
/**
 * Versions this code reads. 2 added the route columns and the outcome taxonomy (`currentOutcome`);
 * 3 the writers (`writers`, the lock's owner identity, `attempts.writer_id`: lock.ts, claims in
 * write.ts). A stimkit that reads only 1 and 2 refuses a version-3 ledger, as it must: its lock
 * would take over a live writer's after 60 s without a heartbeat. 4 added the batch exports
 * (`batch_exports`, `batch_exported`): a stimkit that reads only 1 to 3 refuses a version-4
 * ledger, as it must: it would send live the trials a batch file already holds, paying them twice.
 */
export const READABLE_LEDGER_VERSIONS: readonly string[] = ['1', '2', '3', '4'];

/**
 * Every process that has written the ledger since version 3 (lock.ts): who it is, to tell whether
 * it still runs (same host and boot, same PID namespace, the pid with the same start time).
 */
const WRITERS_DDL = `
CREATE TABLE IF NOT EXISTS writers (
  writer_id  TEXT PRIMARY KEY,
  pid        INTEGER NOT NULL,
  host       TEXT NOT NULL,
  boot_id    TEXT,
  pid_ns     TEXT,
  start_time TEXT,
  command    TEXT NOT NULL,
  started_at TEXT NOT NULL,
  ended_at   TEXT
);
`;

/**
 * The later turns of a conversation (pressure) that were not sent because an earlier turn ended
 * without an answer (a refusal, a block, an empty or cut reply): each recorded once, with the
 * turn before it and that turn's outcome, so that they are counted, never silently missing.
 */
const UNSENT_TURNS_DDL = `
CREATE TABLE IF NOT EXISTS unsent_turns (
  run_id            INTEGER NOT NULL,
  model             TEXT NOT NULL,
  trial_id          TEXT NOT NULL,
  conversation_id   TEXT NOT NULL,
  turn              INTEGER NOT NULL,
  reason            TEXT NOT NULL,
  previous_trial_id TEXT NOT NULL,
  previous_outcome  TEXT NOT NULL,
  recorded_at       TEXT NOT NULL,
  PRIMARY KEY (run_id, model, trial_id)
);
`;

/**
 * Version 4: what `batch export --ledger` wrote into batch files (batch-exports.ts), so that no
 * `run` sends a trial a batch file holds and no later export writes it again until the batch's
 * output is imported: one row per export, and one per trial it holds, with the line's id and when
 * an import read that id (NULL: not yet).
 */
const BATCH_EXPORTS_DDL = `
CREATE TABLE IF NOT EXISTS batch_exports (
  export_id   INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL,
  model       TEXT NOT NULL,
  file        TEXT NOT NULL,
  parts       INTEGER NOT NULL,
  requests    INTEGER NOT NULL,
  exported_at TEXT NOT NULL,
  writer_id   TEXT
);
CREATE TABLE IF NOT EXISTS batch_exported (
  export_id   INTEGER NOT NULL REFERENCES batch_exports(export_id),
  trial_id    TEXT NOT NULL,
  custom_id   TEXT NOT NULL,
  imported_at TEXT,
  PRIMARY KEY (export_id, trial_id)
);
CREATE INDEX IF NOT EXISTS batch_exported_waiting ON batch_exported(trial_id) WHERE imported_at IS NULL;
`;

/** Tables added after version 1 (created by the upgrade when missing). */
export const ADDED_TABLES = WRITERS_DDL + UNSENT_TURNS_DDL + BATCH_EXPORTS_DDL;

/** The DDL, applied in one transaction when a ledger is created. */
export const LEDGER_DDL = `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE runs (
  run_id        INTEGER PRIMARY KEY,
  label         TEXT NOT NULL UNIQUE,
  bundle_digest TEXT NOT NULL,
  study_id      TEXT,
  created_at    TEXT NOT NULL,
  tool_version  TEXT NOT NULL
);
CREATE TABLE models (
  run_id         INTEGER NOT NULL REFERENCES runs(run_id),
  model          TEXT NOT NULL,
  provider       TEXT NOT NULL,
  profile        TEXT,
  profile_sha256 TEXT,
  info           TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  PRIMARY KEY (run_id, model)
);
CREATE TABLE trials (
  run_id    INTEGER NOT NULL REFERENCES runs(run_id),
  trial_id  TEXT NOT NULL,
  block     TEXT NOT NULL,
  paradigm  TEXT NOT NULL,
  arm       TEXT,
  lang      TEXT NOT NULL,
  entry     TEXT,
  item      TEXT,
  topic     TEXT,
  variant   TEXT,
  framing   TEXT,
  iteration INTEGER,
  seed      INTEGER,
  prompt    TEXT,
  model_set TEXT,
  conversation_id TEXT,
  turn      INTEGER,
  followup  TEXT,
  thinking  TEXT,
  PRIMARY KEY (run_id, trial_id)
);
CREATE TABLE attempts (
  attempt_id     INTEGER PRIMARY KEY,
  run_id         INTEGER NOT NULL,
  model          TEXT NOT NULL,
  trial_id       TEXT NOT NULL,
  attempt        INTEGER NOT NULL,
  source         TEXT NOT NULL,
  request_sha256 TEXT NOT NULL,
  endpoint       TEXT,
  state          TEXT NOT NULL,
  outcome        TEXT,
  error_class    TEXT,
  http_status    INTEGER,
  error_body     TEXT,
  latency_ms     REAL,
  started_at     TEXT NOT NULL,
  finished_at    TEXT,
  pid            INTEGER,
  writer_id      TEXT
);
CREATE INDEX attempts_by_trial ON attempts(run_id, model, trial_id);
CREATE INDEX attempts_in_flight ON attempts(state) WHERE state = 'in_flight';
CREATE TABLE results (
  run_id             INTEGER NOT NULL,
  model              TEXT NOT NULL,
  trial_id           TEXT NOT NULL,
  bundle_digest      TEXT NOT NULL,
  outcome            TEXT NOT NULL,
  request_sha256     TEXT NOT NULL,
  dropped            TEXT,
  response_text      TEXT,
  reasoning_text     TEXT,
  finish_reason      TEXT,
  prompt_tokens      INTEGER,
  completion_tokens  INTEGER,
  total_tokens       INTEGER,
  usage              TEXT,
  served_model       TEXT,
  system_fingerprint TEXT,
  simulated          INTEGER NOT NULL DEFAULT 0,
  truth              TEXT,
  error_class        TEXT,
  http_status        INTEGER,
  error_body         TEXT,
  attempts           INTEGER NOT NULL,
  latency_ms         REAL,
  finished_at        TEXT NOT NULL,
  sent_images        TEXT,
  cost_usd           REAL,
  route_provider     TEXT,
  response_id        TEXT,
  request_id         TEXT,
  region             TEXT,
  endpoint           TEXT,
  reasoning_visibility TEXT,
  reasoning_tokens   INTEGER,
  PRIMARY KEY (run_id, model, trial_id)
);
CREATE TABLE lock (
  id           INTEGER PRIMARY KEY CHECK (id = 1),
  pid          INTEGER NOT NULL,
  host         TEXT NOT NULL,
  command      TEXT NOT NULL,
  started_at   TEXT NOT NULL,
  heartbeat_at TEXT NOT NULL,
  writer_id    TEXT,
  pid_ns       TEXT,
  start_time   TEXT,
  boot_id      TEXT
);
${WRITERS_DDL}${UNSENT_TURNS_DDL}${BATCH_EXPORTS_DDL}`;

/**
 * Columns added to a table after version 1 was first released: an older ledger gains them (NULL
 * in its earlier rows) when a run opens it for writing (open.ts); readers treat a missing one as
 * NULL. `sent_images`: JSON list of the images a result sent (send-image.ts); `cost_usd`: the
 * result's cost from its usage and the model's price (run/cost.ts); `route_provider`,
 * `response_id`, `request_id`, `region`, `endpoint`: the serving route that answered (route.ts); `reasoning_visibility` (full, summary,
 * redacted, absent, empty) and `reasoning_tokens`: the reasoning channel of a reply;
 * `trials.conversation_id`, `turn`, `followup`: a turn of a conversation (pressure), else NULL;
 * `trials.thinking`: the level (`on`, `off`) of the thinking factor of the trial's block, else NULL;
 * version 3: `attempts.writer_id` (the writer that claimed the attempt) and the lock owner's
 * identity (`lock.writer_id`, `pid_ns`, `start_time`, `boot_id`: lock.ts).
 */
export const ADDED_COLUMNS: ReadonlyArray<{ table: string; column: string; type: string }> = [
  { table: 'results', column: 'sent_images', type: 'TEXT' },
  { table: 'results', column: 'cost_usd', type: 'REAL' },
  { table: 'results', column: 'route_provider', type: 'TEXT' },
  { table: 'results', column: 'response_id', type: 'TEXT' },
  { table: 'results', column: 'request_id', type: 'TEXT' },
  { table: 'results', column: 'region', type: 'TEXT' },
  { table: 'results', column: 'endpoint', type: 'TEXT' },
  { table: 'results', column: 'reasoning_visibility', type: 'TEXT' },
  { table: 'results', column: 'reasoning_tokens', type: 'INTEGER' },
  { table: 'attempts', column: 'writer_id', type: 'TEXT' },
  { table: 'trials', column: 'conversation_id', type: 'TEXT' },
  { table: 'trials', column: 'turn', type: 'INTEGER' },
  { table: 'trials', column: 'followup', type: 'TEXT' },
  { table: 'trials', column: 'thinking', type: 'TEXT' },
  { table: 'lock', column: 'writer_id', type: 'TEXT' },
  { table: 'lock', column: 'pid_ns', type: 'TEXT' },
  { table: 'lock', column: 'start_time', type: 'TEXT' },
  { table: 'lock', column: 'boot_id', type: 'TEXT' },
];

/**
 * How much of a reply's reasoning the server showed (docs/formats/ledger.md): `full` (the trace as
 * the model wrote it), `summary` (a summary of it, e.g. Anthropic's summarised thinking, Gemini's
 * thought summaries), `redacted` (present but encrypted or withheld, e.g. `redacted_thinking`),
 * `absent` (the reply has no reasoning channel at all), `empty` (the channel is there but empty).
 */
export const REASONING_VISIBILITY = ['full', 'summary', 'redacted', 'absent', 'empty'] as const;
export type ReasoningVisibility = (typeof REASONING_VISIBILITY)[number];

/**
 * Final outcomes ("who said no", docs/formats/ledger.md). `answer` is a normal reply; the next
 * four are findings kept and scored, never retried: `provider_block` (a filter outside the model
 * stopped the request or the output), `model_refusal` (the model declined in a structured way),
 * `suppressed` (an empty or whitespace-only reply with a normal stop), `length` (stopped at
 * the token limit); `failed` is retried only with --retry-failed.
 */
export type Outcome =
  'answer' | 'provider_block' | 'model_refusal' | 'suppressed' | 'length' | 'failed';

/**
 * The outcome names of ledgers written before the taxonomy above, mapped on read (the stored
 * value stays): `content_filter` → provider_block; `policy_refusal` → provider_block when an HTTP
 * error carried it (a 400/422 naming a policy), else model_refusal (a `refusal` field);
 * `empty` → suppressed (`length` and `failed` keep their names). A result with `error_class`
 * `refusal` (Anthropic's `stop_reason: refusal`, its streaming classifiers: a filter outside the
 * model) reads as provider_block whatever was stored: version 1 stored `policy_refusal` and
 * version 2 before this mapping `model_refusal` for it.
 */
export function currentOutcome(
  stored: string,
  httpStatus: number | null,
  errorClass: string | null = null,
): Outcome {
  if (errorClass === 'refusal' && (stored === 'policy_refusal' || stored === 'model_refusal'))
    return 'provider_block';
  switch (stored) {
    case 'content_filter':
      return 'provider_block';
    case 'policy_refusal':
      return httpStatus !== null && httpStatus >= 400 ? 'provider_block' : 'model_refusal';
    case 'empty':
      return 'suppressed';
    default:
      return stored as Outcome;
  }
}

/**
 * The route a result is grouped by in summaries and reports: the provider a gateway named in its
 * reply (OpenRouter's `provider`), else the endpoint replica, else `sim` for a simulated
 * respondent (or `unknown`, e.g. an imported batch line).
 */
export function routeLabel(r: {
  route_provider: string | null;
  endpoint: string | null;
  simulated: boolean;
}): string {
  return r.route_provider ?? r.endpoint ?? (r.simulated ? 'sim' : 'unknown');
}

/** Bytes of an error body kept in the ledger. */
export const ERROR_BODY_MAX = 2000;
