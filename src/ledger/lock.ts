/**
 * One writer per ledger: a second `stimkit run` (or `batch import`, or judge calls) on the same
 * ledger REFUSES while the first may still run. The writer holds the `lock` row with its identity
 * (owner.ts: pid, host, boot id, PID namespace, start time) and a `writers` row, and refreshes
 * `heartbeat_at` every 10 s for people reading the file; the heartbeat's age never decides.
 *
 * A lock is taken over only when its owner is proven gone (owner.ts). Taking it releases the
 * claims (in-flight attempts, write.ts `claim`) of every writer that is not provably alive: they
 * are marked `interrupted`, which is how the ledger shows requests lost to a crash. Claims of a
 * writer that provably runs are left to it. When the owner cannot be checked (another host, boot
 * or PID namespace) the lock is refused with E_RUN_LEDGER_BUSY naming the owner, how to check it
 * and how to clear the lock by hand.
 */
import { randomUUID } from 'node:crypto';
import { StimkitError } from '../core/errors.js';
import { ioProblem } from '../core/io-errors.js';
import type { Db } from './open.js';
import { ownerState, selfIdentity, type OwnerState, type WriterIdentity } from './owner.js';

const HEARTBEAT_MS = 10_000;

interface LockRow extends WriterIdentity {
  writer_id: string | null;
  command: string;
  started_at: string;
  heartbeat_at: string;
}

/** The writers of this process that hold their lock now. */
const liveHere = new Set<string>();
/** The lock held on each open ledger connection of this process (write.ts claims under it). */
const held = new WeakMap<Db, LedgerLock>();

/** The held lock; `release` gives it back. */
export interface LedgerLock {
  /** This writer's id (`writers.writer_id`, `attempts.writer_id`). */
  writerId: string;
  /** In-flight attempts of writers proven gone, marked interrupted on taking the lock. */
  interrupted: number;
  /** Give the lock back; returns the error of doing so (null when none) rather than throwing. */
  release: () => Error | null;
}

/** The lock this process holds on `db`, if any. */
export function heldLock(db: Db): LedgerLock | undefined {
  return held.get(db);
}

/** Whether the recorded writer still runs. */
function judge(w: WriterIdentity & { writer_id: string | null }): OwnerState {
  return ownerState(w, w.writer_id !== null && liveHere.has(w.writer_id));
}

/** Take the writer lock or refuse with E_RUN_LEDGER_BUSY naming the holder. */
export function acquireLock(
  db: Db,
  file: string,
  command: string,
  /** `claim`: the writer records a claim that belongs in this ledger (a batch export), not in another. */
  o: { claim?: boolean } = {},
): LedgerLock {
  const me = selfIdentity();
  const writerId = randomUUID();
  const now = () => new Date().toISOString();
  let interrupted: number;
  try {
    interrupted = db
      .transaction(() => {
        const row = db.prepare('SELECT * FROM lock WHERE id = 1').get() as LockRow | undefined;
        const owner = row ? judge(row) : null;
        if (row && owner && owner.state !== 'dead') throw busy(file, row, owner, o.claim ?? false);
        const who = [me.pid, me.host, command, now()] as const;
        const id = [writerId, me.pid_ns, me.start_time, me.boot_id] as const;
        db.prepare(
          'INSERT OR REPLACE INTO lock (id, pid, host, command, started_at, heartbeat_at, writer_id, pid_ns, start_time, boot_id) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        ).run(...who, now(), ...id);
        db.prepare(
          'INSERT INTO writers (pid, host, command, started_at, writer_id, pid_ns, start_time, boot_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        ).run(...who, ...id);
        return releaseClaims(db, now());
      })
      .immediate();
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw busyTransaction(file, err);
    throw ioProblem(err, { file, writing: 'the ledger lock' }) ?? err;
  }
  liveHere.add(writerId);
  const beat = setInterval(() => {
    try {
      db.prepare('UPDATE lock SET heartbeat_at = ? WHERE id = 1 AND writer_id = ?').run(
        now(),
        writerId,
      );
    } catch {
      /* the database is closing, or the disk is full: the heartbeat only informs */
    }
  }, HEARTBEAT_MS);
  beat.unref();
  let released = false;
  const lock: LedgerLock = {
    writerId,
    interrupted,
    release: () => {
      if (released) return null;
      released = true;
      clearInterval(beat);
      liveHere.delete(writerId);
      held.delete(db);
      try {
        db.transaction(() => {
          db.prepare('DELETE FROM lock WHERE id = 1 AND writer_id = ?').run(writerId);
          db.prepare('UPDATE writers SET ended_at = ? WHERE writer_id = ?').run(now(), writerId);
        })();
        return null;
      } catch (err) {
        return (
          ioProblem(err, { file, writing: 'the end of writing (giving back the lock)' }) ??
          asError(err)
        );
      }
    },
  };
  held.set(db, lock);
  return lock;
}

/**
 * Mark interrupted the in-flight attempts of every writer that is not provably alive (the lock's
 * previous owner, proven gone; writers that lost or gave back their lock; attempts of a stimkit
 * before version 3, without a writer id). Returns how many were marked.
 */
function releaseClaims(db: Db, now: string): number {
  const owners = db
    .prepare(
      `SELECT DISTINCT a.writer_id, w.pid, w.host, w.boot_id, w.pid_ns, w.start_time, w.ended_at
       FROM attempts a LEFT JOIN writers w ON w.writer_id = a.writer_id WHERE a.state = 'in_flight'`,
    )
    .all() as Array<WriterIdentity & { writer_id: string | null; ended_at: string | null }>;
  const mark = db.prepare(
    "UPDATE attempts SET state = 'interrupted', finished_at = ? WHERE state = 'in_flight' AND writer_id IS ?",
  );
  const end = db.prepare(
    'UPDATE writers SET ended_at = ? WHERE writer_id = ? AND ended_at IS NULL',
  );
  let interrupted = 0;
  for (const o of owners) {
    const known = o.writer_id !== null && o.pid !== null && o.ended_at === null;
    if (known && judge(o).state === 'alive') continue; // its claims are its own
    interrupted += mark.run(now, o.writer_id).changes;
    if (o.writer_id !== null) end.run(now, o.writer_id);
  }
  return interrupted;
}

/** Close a ledger written under `lock`: give the lock back and close the file. Their errors are thrown only when no earlier error is on its way (`failing`), so the first error is the one reported. */
export function closeWriting(db: Db, lock: LedgerLock | null, failing: boolean): void {
  let first = lock?.release() ?? null;
  try {
    db.close();
  } catch (err) {
    first ??= asError(err);
  }
  if (first !== null && !failing) throw first;
}

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/** E_RUN_LEDGER_BUSY: who holds the lock, why it is taken to run, how to check it and clear it. */
function busy(file: string, row: LockRow, owner: OwnerState, claim: boolean): StimkitError {
  // A batch export belongs in the ledger its output is imported into: another file would not hold it.
  const other = claim
    ? 'then export again (the export must be recorded in the ledger its output will be imported into, not another)'
    : 'or give this run its own --ledger file';
  const ns = row.pid_ns ? `, PID namespace ${row.pid_ns}` : '';
  const who = `pid ${row.pid} on ${row.host}${ns}, "${row.command}", since ${row.started_at}, last heartbeat ${row.heartbeat_at}`;
  const check = `check it on ${row.host}${row.pid_ns ? ` in PID namespace ${row.pid_ns} (e.g. inside its container)` : ''} with: ps -o pid,lstart,args -p ${row.pid}`;
  const which = row.writer_id ? `writer_id = '${row.writer_id}'` : `pid = ${row.pid}`;
  const clear = `sqlite3 "${file}" "DELETE FROM lock WHERE ${which}"`;
  return StimkitError.fromProblem({
    code: 'E_RUN_LEDGER_BUSY',
    file,
    message: `another stimkit (${who}) is writing this ledger: ${owner.why}; a ledger has one writer at a time`,
    fix:
      owner.state === 'alive'
        ? `wait for it to finish or stop it (Ctrl-C), ${other}`
        : `wait for it to finish or stop it, ${other}; ${check}. Only if you know it no longer runs, clear its lock with ${clear} and run again (its requests in flight are then marked interrupted and sent again)`,
  });
}

/** E_RUN_LEDGER_BUSY for a write transaction held past the busy timeout. */
function busyTransaction(file: string, cause: unknown): StimkitError {
  return StimkitError.fromProblem(
    {
      code: 'E_RUN_LEDGER_BUSY',
      file,
      message:
        'another process has held a write transaction on this ledger for over 10 s (it may be stopped, e.g. with Ctrl-Z, in the middle of writing)',
      fix: 'let that process continue (fg) or stop it, then run again',
    },
    cause,
  );
}
