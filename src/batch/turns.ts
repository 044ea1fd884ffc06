/**
 * Conversations through batch files (the pressure paradigm): a batch can only hold the turns
 * whose previous turn is answered, so a conversation of k turns takes k rounds of export, batch
 * and import. `batch export --ledger FILE` writes the trials without a result in the ledger whose
 * previous turn is answered there (turn 1 first), each as the conversation so far; `batch import`
 * rebuilds each line's request the same way from the same ledger, so its custom_id check covers
 * the whole conversation, and refuses a line of a turn whose previous turn is not answered.
 */
import type { Trial } from '../bundle/format.js';
import type { EarlierTurn } from '../client/conversation.js';
import { StimkitError } from '../core/errors.js';
import { turnStateOfFile } from '../ledger/turns.js';
import { turnStatus, type ReadyTurn } from '../run/turns.js';

/** What an export leaves for a later round. */
export interface HeldTurns {
  /** Turns whose previous turn has no answer yet (export again after importing it). */
  waiting: number;
  /** Turns after a turn that ended without an answer (`stimkit run` records them as not sent). */
  after_no_answer: number;
}

/** The trials to export: without a result in the ledger, and their previous turn answered. */
export function exportableTurns(
  trials: readonly Trial[],
  all: readonly Trial[],
  ledger: { file: string; digest: string; model: string } | null,
): { ready: ReadyTurn[]; held: HeldTurns } {
  const state = ledger
    ? turnStateOfFile(ledger.file, ledger.digest, ledger.model)
    : { results: new Map(), unsent: new Set<string>(), finished: new Set<string>() };
  const index = new Map(all.map((t) => [t.id, t]));
  const ready: ReadyTurn[] = [];
  const held: HeldTurns = { waiting: 0, after_no_answer: 0 };
  for (const t of trials) {
    if (state.finished.has(t.id)) continue;
    const s = turnStatus(t, index, state);
    if (s.kind === 'ready') ready.push({ trial: t, earlier: s.earlier });
    else if (s.kind === 'unsent') held.after_no_answer++;
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
