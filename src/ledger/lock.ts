/**
 * One writer per ledger: a second `stimkit run` (or `batch import`) on the same ledger REFUSES
 * while the first is alive. The writer holds the `lock` row (pid, host, heartbeat every 10 s).
 * A lock whose process is gone (same host: the pid no longer exists; another host: no heartbeat
 * for 60 s) is stale and taken over; taking it over marks that process's in-flight attempts
 * `interrupted`, which is how the ledger shows requests lost to a crash.
 */
import os from 'node:os';
import { StimkitError } from '../core/errors.js';
import type { Db } from './open.js';

const HEARTBEAT_MS = 10_000;
const STALE_MS = 60_000;

interface LockRow {
  pid: number;
  host: string;
  command: string;
  started_at: string;
  heartbeat_at: string;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the holder of `row` may still be writing. */
function lockAlive(row: LockRow, now = Date.now()): boolean {
  const fresh = now - Date.parse(row.heartbeat_at) < STALE_MS;
  if (row.host === os.hostname()) return row.pid !== process.pid && pidAlive(row.pid) && fresh;
  return fresh;
}

/** The held lock; `release` gives it back. */
export interface LedgerLock {
  /** In-flight attempts of a dead writer marked interrupted on taking the lock. */
  interrupted: number;
  release: () => void;
}

/** Take the writer lock or refuse with E_RUN_LEDGER_BUSY naming the holder. */
export function acquireLock(db: Db, file: string, command: string): LedgerLock {
  const now = () => new Date().toISOString();
  const interrupted = db
    .transaction(() => {
      const row = db
        .prepare('SELECT pid, host, command, started_at, heartbeat_at FROM lock WHERE id = 1')
        .get() as LockRow | undefined;
      if (row && lockAlive(row)) {
        throw StimkitError.fromProblem({
          code: 'E_RUN_LEDGER_BUSY',
          file,
          message: `another stimkit (pid ${row.pid} on ${row.host}, ${row.command}, since ${row.started_at}) is writing this ledger; a ledger has one writer at a time`,
          fix: 'wait for it to finish, stop it (Ctrl-C), or give this run its own --ledger file',
        });
      }
      db.prepare(
        'INSERT OR REPLACE INTO lock (id, pid, host, command, started_at, heartbeat_at) VALUES (1, ?, ?, ?, ?, ?)',
      ).run(process.pid, os.hostname(), command, now(), now());
      return db
        .prepare(
          "UPDATE attempts SET state = 'interrupted', finished_at = ? WHERE state = 'in_flight'",
        )
        .run(now()).changes;
    })
    .immediate();
  const beat = setInterval(() => {
    try {
      db.prepare('UPDATE lock SET heartbeat_at = ? WHERE id = 1 AND pid = ?').run(
        now(),
        process.pid,
      );
    } catch {
      /* the database is closing */
    }
  }, HEARTBEAT_MS);
  beat.unref();
  let released = false;
  return {
    interrupted,
    release: () => {
      if (released) return;
      released = true;
      clearInterval(beat);
      db.prepare('DELETE FROM lock WHERE id = 1 AND pid = ?').run(process.pid);
    },
  };
}
