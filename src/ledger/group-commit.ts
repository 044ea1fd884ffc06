/**
 * Group commit: writes queued during one turn of the event loop run in one SQLite transaction
 * (one WAL commit instead of one per write), and each caller's promise resolves only after that
 * commit. An attempt still reaches the ledger (committed `in_flight`) before its request leaves,
 * and a reply counts as recorded only once committed, so the guarantees are unchanged; under
 * concurrency the commits per trial fall from two to a fraction. The transaction is IMMEDIATE (it
 * takes the write lock first), so that a claim's check and its insert see one state of the file.
 */
import { ioProblem } from '../core/io-errors.js';
import type { Db } from './open.js';

interface Op {
  fn: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

export class GroupCommit {
  private queue: Op[] = [];
  private scheduled = false;
  /** Transactions committed so far. */
  commits = 0;

  constructor(private readonly db: Db) {}

  /** Run `fn` inside the next group transaction; resolves with its value after the commit. */
  run<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commit everything queued now. */
  flush(): void {
    this.scheduled = false;
    const ops = this.queue;
    this.queue = [];
    if (ops.length === 0) return;
    let values: unknown[];
    try {
      values = this.db.transaction(() => ops.map((op) => op.fn())).immediate();
      this.commits++;
    } catch (err) {
      const coded = ioProblem(err, { file: this.db.name, writing: 'the ledger' }) ?? err;
      for (const op of ops) op.reject(coded);
      return;
    }
    ops.forEach((op, i) => op.resolve(values[i]));
  }
}
