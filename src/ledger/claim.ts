/**
 * Claims: a request is sent only after its attempt row is committed `in_flight` with the writer's
 * id, in one immediate transaction that first checks that this writer still holds the ledger's
 * lock and that no one else has attempted the trial since this writer planned it (its highest
 * attempt number is still the one before this attempt, and nothing of it is in flight). So two
 * writers, even forced past the lock (a lock row cleared by hand while its owner ran), never send
 * the same trial: each sends only what it claimed, and a claim of a writer that runs is respected.
 */
import { StimkitError } from '../core/errors.js';
import { heldLock } from './lock.js';
import type { Db } from './open.js';

/** Why a claim was refused: the trial was attempted by another writer, or this writer lost its lock. */
export type ClaimRefusal = { refused: 'taken' } | { refused: 'lost_lock'; holder: string };

/** The lock row's query, prepared once per connection (a claim asks it before every request). */
const holders = new WeakMap<Db, { get: () => unknown }>();

/** Null while this writer holds the ledger's lock, else who holds it now (inside a transaction). */
export function lostLockRefusal(db: Db): Extract<ClaimRefusal, { refused: 'lost_lock' }> | null {
  const mine = heldLock(db);
  let holderOf = holders.get(db);
  if (!holderOf) {
    holderOf = db.prepare('SELECT writer_id, pid, host, command FROM lock WHERE id = 1');
    holders.set(db, holderOf);
  }
  const holder = holderOf.get() as
    { writer_id: string | null; pid: number; host: string; command: string } | undefined;
  if (mine && holder?.writer_id === mine.writerId) return null;
  return {
    refused: 'lost_lock',
    holder: holder ? `pid ${holder.pid} on ${holder.host}, "${holder.command}"` : 'no one',
  };
}

/** The checks of a claim, prepared once per ledger connection. */
export class ClaimCheck {
  private readonly seen;

  constructor(private readonly db: Db) {
    this.seen = db.prepare(
      "SELECT MAX(attempt) AS n, SUM(state = 'in_flight') AS open FROM attempts WHERE run_id = ? AND model = ? AND trial_id = ?",
    );
  }

  /** Null when this writer may claim `attempt` of the trial, else why not (inside the claim's transaction). */
  refusal(runId: number, model: string, trialId: string, attempt: number): ClaimRefusal | null {
    const lost = lostLockRefusal(this.db);
    if (lost) return lost;
    const seen = this.seen.get(runId, model, trialId) as { n: number | null; open: number | null };
    if ((seen.n ?? 0) !== attempt - 1 || (seen.open ?? 0) > 0) return { refused: 'taken' };
    return null;
  }
}

/** E_RUN_LEDGER_BUSY for a writer whose claim found its lock gone: it sends nothing more. */
export function lostLock(r: { holder: string }, file: string | undefined): StimkitError {
  return StimkitError.fromProblem({
    code: 'E_RUN_LEDGER_BUSY',
    ...(file ? { file } : {}),
    message: `this process lost the ledger's writer lock while it ran (now held by ${r.holder}): it sent nothing more, and recorded the replies it was waiting for`,
    fix: 'see who holds it (sqlite3 LEDGER "SELECT * FROM lock"), and run the same command again once that writer has finished',
  });
}
