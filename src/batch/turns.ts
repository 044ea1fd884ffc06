/**
 * Conversations through batch files (the pressure paradigm): a batch can only hold the turns
 * whose previous turn is answered, so a conversation of k turns takes k rounds of export, batch
 * and import. `batch export --ledger FILE` writes the trials without a result in the ledger whose
 * previous turn is answered there (turn 1 first), each as the conversation so far; `batch import`
 * rebuilds each line's request the same way from the same ledger, so its custom_id check covers
 * the whole conversation, and refuses a line of a turn whose previous turn is not answered. After
 * recording, an import records as not sent (ledger/turns.ts) the later turns of a conversation
 * whose turn ended without an answer, exactly as `run` records them, so that no later export
 * waits for them.
 */
import type { Trial } from '../bundle/format.js';
import type { EarlierTurn } from '../client/conversation.js';
import { StimkitError } from '../core/errors.js';
import type { Db } from '../ledger/open.js';
import {
  readTurnState,
  recordUnsent,
  turnStateOfFile,
  type TurnStateOf,
  type UnsentTurn,
} from '../ledger/turns.js';
import { turnStatus, type ReadyTurn, type TrialIndex } from '../run/turns.js';

/** What an export leaves for a later round. */
export interface HeldTurns {
  /** Turns whose previous turn has no answer yet (export again after importing it). */
  waiting: number;
  /** Turns after a turn that ended without an answer (recorded as not sent by an import since). */
  after_no_answer: number;
  /**
   * Turns after a turn that failed (no reply): a batch does not send a failed turn again;
   * `stimkit run --retry-failed` on the same ledger does, and then sends them.
   */
  after_failed: number;
}

/**
 * The trials to export: without a result in the ledger (`state`), their previous turn answered, and
 * not in `skip` (the trials a batch file already holds, ledger/batch-exports.ts).
 */
export function exportableTurns(
  trials: readonly Trial[],
  all: readonly Trial[],
  state: TurnStateOf,
  skip: { has: (id: string) => boolean },
): { ready: ReadyTurn[]; held: HeldTurns } {
  const index = new Map(all.map((t) => [t.id, t]));
  const ready: ReadyTurn[] = [];
  const held: HeldTurns = { waiting: 0, after_no_answer: 0, after_failed: 0 };
  for (const t of trials) {
    if (state.finished.has(t.id) || skip.has(t.id)) continue;
    const s = turnStatus(t, index, state);
    if (s.kind === 'ready') ready.push({ trial: t, earlier: s.earlier });
    else if (s.kind === 'unsent') held.after_no_answer++;
    else if (s.failed) held.after_failed++;
    else held.waiting++;
  }
  return { ready, held };
}

/**
 * The earlier turns of each trial an import checks, from the ledger it records into: a function
 * that throws E_BATCH_TURN_ORDER for a turn whose previous turn is not answered there.
 */
export function earlierFromLedger(
  all: readonly Trial[],
  ledger: { file: string; digest: string; model: string; label?: string },
): (trial: Trial, at: { file: string; line: number }) => EarlierTurn[] {
  if (!all.some((t) => t.conversation)) return () => [];
  const state = turnStateOfFile(ledger.file, ledger.digest, ledger.model, ledger.label);
  const index = new Map(all.map((t) => [t.id, t]));
  return (trial, at) => {
    const s = turnStatus(trial, index, state);
    if (s.kind === 'ready') return s.earlier;
    throw StimkitError.fromProblem({
      code: 'E_BATCH_TURN_ORDER',
      file: at.file,
      line: at.line,
      message: `this line answers turn ${trial.conversation!.turn} of conversation ${trial.conversation!.id}, whose previous turn (${trial.conversation!.previous}) has no answer in ${ledger.file}; nothing recorded`,
      fix: 'import the batch of the previous turn first (a conversation goes one turn per round: export, batch, import)',
    });
  };
}

/**
 * Record as not sent the turns of `trials` after a turn that ended without an answer in run
 * `runId` (turnStatus decides, as for a live run: a turn after a `failed` one waits, since
 * `run --retry-failed` can send the failed turn again); each turn once. Returns the turns
 * recorded now, in turn order.
 */
export function recordTurnsNotSent(
  db: Db,
  runId: number,
  model: string,
  trials: readonly Trial[],
  index: TrialIndex,
): UnsentTurn[] {
  const later = trials.filter((t) => t.conversation && t.conversation.previous !== null);
  const recorded: UnsentTurn[] = [];
  if (later.length === 0) return recorded;
  // Turn k + 1 is known to be not sent once turn k is recorded so: a pass per turn at most.
  for (;;) {
    const state = readTurnState(db, runId, model);
    const rows: UnsentTurn[] = [];
    for (const t of later) {
      if (state.results.has(t.id) || state.unsent.has(t.id)) continue;
      const s = turnStatus(t, index, state);
      if (s.kind === 'unsent') rows.push(s.row);
    }
    if (rows.length === 0) return recorded;
    recordUnsent(db, runId, model, rows);
    recorded.push(...rows);
  }
}
