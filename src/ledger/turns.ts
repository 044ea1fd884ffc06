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
): TurnState & { finished: Set<string> } {
  const empty = { results: new Map(), unsent: new Set<string>(), finished: new Set<string>() };
  if (!existsSync(file)) return empty;
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
    if (!run) return empty;
    const hasUnsent = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'unsent_turns'")
      .get();
    const state = hasUnsent
      ? readTurnState(db, run.run_id, model)
      : { results: new Map<string, RecordedTurn>(), unsent: new Set<string>() };
    const finished = new Set(
      db
        .prepare('SELECT trial_id FROM results WHERE run_id = ? AND model = ?')
        .pluck()
        .all(run.run_id, model) as string[],
    );
    for (const id of state.unsent) finished.add(id);
    return { ...state, finished };
  } finally {
    db.close();
  }
}
