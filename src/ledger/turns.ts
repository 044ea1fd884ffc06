/**
 * The turns of conversations (the pressure paradigm) in a ledger: what each recorded turn ended
 * with and said (its outcome and `response_text`, which a later turn sends back as the model's
 * reply), and the later turns recorded as not sent because an earlier turn ended without an
 * answer (`unsent_turns`, schema.ts).
 */
import { existsSync } from 'node:fs';
import { openReader, type Db } from './open.js';

/** A recorded turn: its outcome and its reply text as stored. */
interface RecordedTurn {
  outcome: string;
  response_text: string | null;
}

/** A turn recorded as not sent, and why. */
export interface UnsentTurn {
  trial_id: string;
  conversation_id: string;
  turn: number;
  /** `previous_turn_<outcome>` or `previous_turn_not_sent`. */
  reason: string;
  previous_trial_id: string;
  previous_outcome: string;
}

/** What the ledger holds of a model's conversation turns in a run. */
export interface TurnState {
  results: Map<string, RecordedTurn>;
  unsent: Set<string>;
}

/** The recorded results and the unsent turns of `model`'s conversation trials in a run. */
export function readTurnState(db: Db, runId: number, model: string): TurnState {
  const rows = db
    .prepare(
      `SELECT r.trial_id, r.outcome, r.response_text FROM results r
       JOIN trials t ON t.run_id = r.run_id AND t.trial_id = r.trial_id
       WHERE r.run_id = ? AND r.model = ? AND t.conversation_id IS NOT NULL`,
    )
    .all(runId, model) as Array<RecordedTurn & { trial_id: string }>;
  const unsent = db
    .prepare('SELECT trial_id FROM unsent_turns WHERE run_id = ? AND model = ?')
    .pluck()
    .all(runId, model) as string[];
  return {
    results: new Map(rows.map((r) => [r.trial_id, r])),
    unsent: new Set(unsent),
  };
}

/** Record turns as not sent (once each: a turn already recorded keeps its first record). */
export function recordUnsent(db: Db, runId: number, model: string, rows: UnsentTurn[]): void {
  const put = db.prepare(
    `INSERT OR IGNORE INTO unsent_turns (run_id, model, trial_id, conversation_id, turn, reason, previous_trial_id, previous_outcome, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const at = new Date().toISOString();
  db.transaction(() => {
    for (const r of rows)
      put.run(
        runId,
        model,
        r.trial_id,
        r.conversation_id,
        r.turn,
        r.reason,
        r.previous_trial_id,
        r.previous_outcome,
        at,
      );
  })();
}

/** What the ledger holds of a model's conversation turns in a run, and which trials are finished. */
export type TurnStateOf = TurnState & { finished: Set<string> };

/**
 * `readTurnState` of run `runId`, with the trials that already have a result or were recorded as
 * not sent (`finished`).
 */
export function turnStateOf(db: Db, runId: number, model: string): TurnStateOf {
  const hasUnsent = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'unsent_turns'")
    .get();
  const state = hasUnsent
    ? readTurnState(db, runId, model)
    : { results: new Map<string, RecordedTurn>(), unsent: new Set<string>() };
  const finished = new Set(
    db
      .prepare('SELECT trial_id FROM results WHERE run_id = ? AND model = ?')
      .pluck()
      .all(runId, model) as string[],
  );
  for (const id of state.unsent) finished.add(id);
  return { ...state, finished };
}

/** Nothing recorded yet: no turn answered, none finished. */
export const emptyTurnState = (): TurnStateOf => ({
  results: new Map(),
  unsent: new Set<string>(),
  finished: new Set<string>(),
});

/**
 * What a ledger file holds of `model`'s conversation turns in the run of bundle `digest` (the
 * latest such run, or the run `label`), and which trials already have a result; read-only. An
 * empty state when the file or the run does not exist yet.
 */
export function turnStateOfFile(
  file: string,
  digest: string,
  model: string,
  label?: string,
): TurnStateOf {
  if (!existsSync(file)) return emptyTurnState();
  const db = openReader(file);
  try {
    const run = (
      label === undefined
        ? db
            .prepare('SELECT run_id FROM runs WHERE bundle_digest = ? ORDER BY run_id DESC LIMIT 1')
            .get(digest)
        : db
            .prepare('SELECT run_id FROM runs WHERE bundle_digest = ? AND label = ?')
            .get(digest, label)
    ) as { run_id: number } | undefined;
    return run ? turnStateOf(db, run.run_id, model) : emptyTurnState();
  } finally {
    db.close();
  }
}

/** A trial's place in its conversation (the ledger's `trials` columns). */
export interface ConversationFields {
  conversation_id: string;
  turn: number;
  /** The follow-up kind; null for turn 1. */
  followup: string | null;
}

/** Whether the ledger has table `table` (with column `column`, when given). */
function has(db: Db, table: string, column?: string): boolean {
  const cols = db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[];
  return column === undefined ? cols.length > 0 : cols.includes(column);
}

/** The conversation fields of run `runId`'s trials by id (empty in a ledger older than them). */
export function conversationFields(db: Db, runId: number): Map<string, ConversationFields> {
  if (!has(db, 'trials', 'conversation_id')) return new Map();
  const rows = db
    .prepare(
      'SELECT trial_id, conversation_id, turn, followup FROM trials WHERE run_id = ? AND conversation_id IS NOT NULL',
    )
    .all(runId) as Array<ConversationFields & { trial_id: string }>;
  return new Map(rows.map(({ trial_id, ...f }) => [trial_id, f]));
}

/**
 * The thinking factor's level (`on`, `off`) of run `runId`'s trials by id: the trials of blocks
 * with the factor (empty in a ledger older than the column, and for its rows a run has not
 * filled since: runs.ts `insertTrials`).
 */
export function thinkingLevels(db: Db, runId: number): Map<string, string> {
  if (!has(db, 'trials', 'thinking')) return new Map();
  const rows = db
    .prepare('SELECT trial_id, thinking FROM trials WHERE run_id = ? AND thinking IS NOT NULL')
    .all(runId) as Array<{ trial_id: string; thinking: string }>;
  return new Map(rows.map((r) => [r.trial_id, r.thinking]));
}

/** A turn recorded as not sent, with its model and when it was recorded. */
export interface UnsentRecord extends UnsentTurn {
  model: string;
  recorded_at: string;
  /** The model is simulated (`provider: sim`). */
  simulated: boolean;
}

/**
 * The turns of run `runId` recorded as not sent (of `models`, or every model), ordered by model
 * and trial id, each with the row's `trialColumns` (columns of `trials` as `t`) beside it.
 */
export function unsentRows(
  db: Db,
  runId: number,
  models: readonly string[] | null,
  trialColumns: string,
): Array<Record<string, unknown> & { unsent: UnsentRecord }> {
  if (!has(db, 'unsent_turns')) return [];
  const only = models ? `AND u.model IN (${models.map(() => '?').join(', ')})` : '';
  const rows = db
    .prepare(
      `SELECT u.model AS u_model, u.trial_id AS u_trial_id, u.conversation_id AS u_conversation_id,
         u.turn AS u_turn, u.reason, u.previous_trial_id, u.previous_outcome, u.recorded_at,
         m.provider, ${trialColumns}
       FROM unsent_turns u
       LEFT JOIN trials t ON t.run_id = u.run_id AND t.trial_id = u.trial_id
       LEFT JOIN models m ON m.run_id = u.run_id AND m.model = u.model
       WHERE u.run_id = ? ${only} ORDER BY u.model, u.trial_id`,
    )
    .all(runId, ...(models ?? [])) as Array<Record<string, unknown>>;
  return rows.map((r) => ({
    ...r,
    unsent: {
      model: r.u_model as string,
      trial_id: r.u_trial_id as string,
      conversation_id: r.u_conversation_id as string,
      turn: r.u_turn as number,
      reason: r.reason as string,
      previous_trial_id: r.previous_trial_id as string,
      previous_outcome: r.previous_outcome as string,
      recorded_at: r.recorded_at as string,
      simulated: r.provider === 'sim',
    },
  }));
}
