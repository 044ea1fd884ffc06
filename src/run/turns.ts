/**
 * Conversations sent turn by turn (the pressure paradigm): a turn k > 1 is sent only once turn
 * k − 1 has an answer in the ledger, as the conversation so far (client/conversation.ts). The
 * ledger is the only state: each wave reads it, sends the turns whose previous turn is answered,
 * and records as not sent (ledger/turns.ts) the turns after one that ended without an answer
 * (provider_block, model_refusal, suppressed, length): the model said no, or said nothing usable,
 * so there is no answer to press on. A turn after a `failed` one waits (an infrastructure fault:
 * `--retry-failed` sends the failed turn again, then the next). A kill loses at most the turns in
 * flight; the next run resumes at the first turn without a result.
 */
import type { Trial } from '../bundle/format.js';
import type { EarlierTurn } from '../client/conversation.js';
import { readTurnState, recordUnsent, type TurnState, type UnsentTurn } from '../ledger/turns.js';
import type { LedgerWriter } from '../ledger/write.js';

/** A trial ready to send, with the earlier turns of its conversation (none for a one-turn trial). */
export interface ReadyTurn {
  trial: Trial;
  earlier: EarlierTurn[];
}

/** Where a trial stands: ready, waiting on its previous turn, or not to be sent. */
type Status =
  | { kind: 'ready'; earlier: EarlierTurn[] }
  | { kind: 'wait'; failed: boolean }
  | { kind: 'unsent'; row: UnsentTurn };

/** The trials of a bundle by id: the earlier turns of a conversation are found here. */
export type TrialIndex = ReadonlyMap<string, Trial>;

/** The earlier turns of `t`, or why it cannot be sent now. */
export function turnStatus(t: Trial, index: TrialIndex, state: TurnState): Status {
  const c = t.conversation;
  if (!c || c.previous === null) return { kind: 'ready', earlier: [] };
  const prev = state.results.get(c.previous);
  const unsent = (reason: string, outcome: string): Status => ({
    kind: 'unsent',
    row: {
      trial_id: t.id,
      conversation_id: c.id,
      turn: c.turn,
      reason,
      previous_trial_id: c.previous!,
      previous_outcome: outcome,
    },
  });
  if (!prev)
    return state.unsent.has(c.previous)
      ? unsent('previous_turn_not_sent', 'not_sent')
      : { kind: 'wait', failed: false };
  if (prev.outcome === 'failed') return { kind: 'wait', failed: true };
  if (prev.outcome !== 'answer') return unsent(`previous_turn_${prev.outcome}`, prev.outcome);
  const earlier = earlierTrials(t, index).map((trial) => {
    const reply = state.results.get(trial.id)?.response_text;
    // A turn is sent only after its previous one answered, so every earlier turn has an answer.
    if (reply === null || reply === undefined)
      throw new Error(`conversation ${c.id}: turn ${trial.id} has no recorded answer`);
    return { trial, reply };
  });
  return { kind: 'ready', earlier };
}

/** What sending in turns ended with. */
export interface TurnsEnd {
  /** Turns recorded as not sent in this invocation. */
  unsent: number;
  /** Turns left waiting on a failed turn (sent once `--retry-failed` resends it). */
  blocked: number;
}

/**
 * Send `pending` wave by wave: each wave the turns whose previous turn is answered (and every
 * one-turn trial), until nothing is ready or `wave` reports that the sending stopped.
 */
export async function sendInTurns(
  writer: LedgerWriter,
  model: string,
  pending: readonly Trial[],
  index: TrialIndex,
  wave: (ready: ReadyTurn[]) => Promise<{ stopped: boolean }>,
): Promise<TurnsEnd> {
  let left = pending;
  let unsentCount = 0;
  for (;;) {
    const state = readTurnState(writer.db, writer.runId, model);
    const ready: ReadyTurn[] = [];
    const unsent: UnsentTurn[] = [];
    const waiting: Trial[] = [];
    let blocked = 0;
    for (const t of left) {
      const s = turnStatus(t, index, state);
      if (s.kind === 'ready') ready.push({ trial: t, earlier: s.earlier });
      else if (s.kind === 'unsent') unsent.push(s.row);
      else {
        waiting.push(t);
        if (s.failed) blocked++;
      }
    }
    if (unsent.length > 0) {
      await writer.group.run(() => recordUnsent(writer.db, writer.runId, model, unsent));
      unsentCount += unsent.length;
    }
    left = waiting;
    if (ready.length === 0 && unsent.length === 0) return { unsent: unsentCount, blocked };
    if (ready.length > 0 && (await wave(ready)).stopped) return { unsent: unsentCount, blocked: 0 };
  }
}

/** The earlier turns of `t`'s conversation, first to last, from the bundle's trials (none for a one-turn trial or turn 1). */
export function earlierTrials(t: Trial, index: TrialIndex): Trial[] {
  const out: Trial[] = [];
  for (let id = t.conversation?.previous ?? null; id !== null;) {
    const e = index.get(id);
    // The bundle holds every turn of a conversation (bundle/plan-pressure.ts).
    if (!e) throw new Error(`conversation ${t.conversation!.id}: no trial ${id} in the bundle`);
    out.unshift(e);
    id = e.conversation?.previous ?? null;
  }
  return out;
}
