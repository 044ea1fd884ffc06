/**
 * One rater's answers, in a SQLite file (WAL, synchronous=FULL): every answer is committed the
 * moment it is given, so closing the browser or killing the server loses nothing. The file is
 * tied to one sample (its sha256), one rater and one mode (blind labelling or review).
 *
 * One server per rater file: the server holds an exclusive SQLite lock on a companion file
 * `<file>.lock` for as long as it runs; the operating system drops the lock when the process ends,
 * however it ends, so a killed server never blocks the next one.
 *
 * The file keeps the session token, so it is the owner's alone: created 0600 before SQLite opens
 * it (SQLite gives its `-wal` and `-shm` files the database's mode), in folders created 0700; a
 * file, side file or lock an older version left readable is tightened when opened.
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { openReader } from '../ledger/open.js';

export const STORE_FORMAT = 'stimkit.label-store';

/** The five questions and the D4 follow-up, in screen order. */
export const DIMENSIONS = ['d1', 'd2', 'd3', 'd4', 'd5'] as const;
export type Dimension = (typeof DIMENSIONS)[number];
export const STRATEGIES = ['dt1', 'dt2', 'dt3'] as const;
export type Strategy = (typeof STRATEGIES)[number];
export type Answer = 'true' | 'false' | 'na';

/** What a rater answered for one item (null: not answered yet). */
export interface ItemAnswers {
  item_id: string;
  d1: Answer | null;
  d2: Answer | null;
  d3: Answer | null;
  d4: Answer | null;
  d5: Answer | null;
  dt1: boolean | null;
  dt2: boolean | null;
  dt3: boolean | null;
  note: string;
  first_saved_at: string | null;
  updated_at: string | null;
}

/** An item is complete when D1–D5 are all answered. */
export function isComplete(a: ItemAnswers | undefined): boolean {
  return a !== undefined && DIMENSIONS.every((d) => a[d] !== null);
}

export function emptyAnswers(itemId: string): ItemAnswers {
  return {
    item_id: itemId,
    d1: null,
    d2: null,
    d3: null,
    d4: null,
    d5: null,
    dt1: null,
    dt2: null,
    dt3: null,
    note: '',
    first_saved_at: null,
    updated_at: null,
  };
}

export interface StoreIdentity {
  sample_sha256: string;
  bundle_digest: string;
  rater: string;
  mode: 'label' | 'review';
}

/** A change of one field: a dimension, a strategy, or the note. */
export type FieldChange =
  | { field: Dimension; value: Answer | null }
  | { field: Strategy; value: boolean | null }
  | { field: 'note'; value: string };

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS answers (
  item_id TEXT PRIMARY KEY,
  d1 TEXT, d2 TEXT, d3 TEXT, d4 TEXT, d5 TEXT,
  dt1 INTEGER, dt2 INTEGER, dt3 INTEGER,
  note TEXT NOT NULL DEFAULT '',
  first_saved_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);`;

/** The strategy follow-up (DT) is asked only when D4 is TRUE: refuse it otherwise. */
function requireD4(answers: ItemAnswers, field: string): void {
  if (answers.d4 === 'true') return;
  throw StimkitError.fromProblem({
    code: 'E_LABEL_DT_WITHOUT_D4',
    message: `${field.toUpperCase()} is asked only when D4 is TRUE, and D4 of item ${answers.item_id} is ${answers.d4 === null ? 'not answered' : answers.d4.toUpperCase()}`,
    field,
    expected: 'D4 = TRUE saved first',
    got: `D4 = ${answers.d4 ?? 'none'}`,
    fix: 'save D4 = TRUE first, then the strategy',
  });
}

/** A rater's answer store. */
export class LabelStore {
  readonly file: string;
  private readonly db: Database.Database;
  private lock: Database.Database | null = null;

  private constructor(file: string, db: Database.Database) {
    this.file = file;
    this.db = db;
  }

  /**
   * Open (or create) the store for `identity`. A store made for another sample, rater or mode is
   * refused. With `exclusive`, also take the one-server lock (E_LABEL_STORE_BUSY if held).
   */
  static open(
    file: string,
    identity: StoreIdentity,
    options: { exclusive?: boolean; create?: boolean } = {},
  ): LabelStore {
    const abs = path.resolve(file);
    let lock: Database.Database | null = null;
    if (options.exclusive) lock = takeLock(abs);
    try {
      if (options.create !== false) {
        mkdirSync(path.dirname(abs), { recursive: true, mode: PRIVATE_FOLDER });
        createPrivate(abs);
      }
      makePrivate(abs);
      const db = new Database(abs, { timeout: 5000, fileMustExist: options.create === false });
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.exec(SCHEMA);
      const store = new LabelStore(abs, db);
      store.lock = lock;
      store.checkIdentity(identity);
      return store;
    } catch (err) {
      lock?.close();
      if (err instanceof StimkitError) throw err;
      throw StimkitError.fromProblem(
        {
          code: 'E_LABEL_STORE',
          file: abs,
          message: `cannot open the rater file (${(err as Error).message})`,
          fix: 'check the path and its permissions',
        },
        err,
      );
    }
  }

  private checkIdentity(identity: StoreIdentity): void {
    const meta = this.meta();
    if (meta.format === undefined) {
      const put = this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
      this.db.transaction(() => {
        put.run('format', STORE_FORMAT);
        put.run('version', '1');
        for (const [k, v] of Object.entries(identity)) put.run(k, v);
      })();
      return;
    }
    for (const key of ['sample_sha256', 'rater', 'mode'] as const) {
      if (meta[key] !== identity[key]) {
        throw StimkitError.fromProblem({
          code: 'E_LABEL_STORE_MISMATCH',
          file: this.file,
          field: key,
          message: `this rater file belongs to another ${key === 'sample_sha256' ? 'sample' : key}`,
          expected: identity[key],
          got: meta[key],
          fix: 'give each sample, rater and mode its own file (--labels), or open it with the sample it was made for',
        });
      }
    }
  }

  /** The store's metadata (format, sample_sha256, bundle_digest, rater, mode, position). */
  meta(): Record<string, string> {
    const rows = this.db.prepare('SELECT key, value FROM meta').all() as Array<{
      key: string;
      value: string;
    }>;
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  /** Every saved item's answers. */
  all(): Map<string, ItemAnswers> {
    const rows = this.db.prepare('SELECT * FROM answers').all() as Array<Record<string, unknown>>;
    return new Map(rows.map((r) => [r.item_id as string, fromRow(r)]));
  }

  get(itemId: string): ItemAnswers {
    const r = this.db.prepare('SELECT * FROM answers WHERE item_id = ?').get(itemId) as
      Record<string, unknown> | undefined;
    return r ? fromRow(r) : emptyAnswers(itemId);
  }

  /**
   * Save one field of one item, committed before this returns. Setting D4 to anything but true
   * clears the strategy follow-up (it is asked only when D4 is true). A follow-up (DT) change
   * while D4 is not true is refused (E_LABEL_DT_WITHOUT_D4), never dropped silently: the page
   * resends it once its D4 = TRUE is saved.
   */
  save(itemId: string, change: FieldChange, now = new Date().toISOString()): ItemAnswers {
    const value = change.field.startsWith('dt')
      ? change.value === null
        ? null
        : change.value
          ? 1
          : 0
      : change.value;
    if (change.field.startsWith('dt')) requireD4(this.get(itemId), change.field);
    this.db.transaction(() => {
      this.db
        .prepare(
          'INSERT INTO answers (item_id, first_saved_at, updated_at) VALUES (?, ?, ?) ON CONFLICT(item_id) DO NOTHING',
        )
        .run(itemId, now, now);
      this.db
        .prepare(`UPDATE answers SET ${change.field} = ?, updated_at = ? WHERE item_id = ?`)
        .run(value, now, itemId);
      if (change.field === 'd4' && change.value !== 'true') {
        this.db
          .prepare('UPDATE answers SET dt1 = NULL, dt2 = NULL, dt3 = NULL WHERE item_id = ?')
          .run(itemId);
      }
    })();
    return this.get(itemId);
  }

  /** Remember the screen the rater is on (to resume there). */
  setPosition(index: number): void {
    this.setMeta('position', String(index));
  }

  /** Set one metadata value (`position`, `token`). */
  setMeta(key: string, value: string): void {
    this.db
      .prepare(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      )
      .run(key, value);
  }

  /**
   * The metadata of an existing rater file, read without locking it; {} if there is none. A
   * reader's connection (query_only), so that no `-wal`/`-shm` file stays behind.
   */
  static peekMeta(file: string): Record<string, string> {
    let db: Database.Database | undefined;
    try {
      db = openReader(path.resolve(file));
      const rows = db.prepare('SELECT key, value FROM meta').all() as Array<{
        key: string;
        value: string;
      }>;
      return Object.fromEntries(rows.map((r) => [r.key, r.value]));
    } catch {
      return {};
    } finally {
      db?.close();
    }
  }

  close(): void {
    this.db.close();
    this.lock?.close();
    this.lock = null;
  }
}

function fromRow(r: Record<string, unknown>): ItemAnswers {
  const bool = (v: unknown) => (v === null || v === undefined ? null : v === 1);
  return {
    item_id: r.item_id as string,
    d1: (r.d1 as Answer | null) ?? null,
    d2: (r.d2 as Answer | null) ?? null,
    d3: (r.d3 as Answer | null) ?? null,
    d4: (r.d4 as Answer | null) ?? null,
    d5: (r.d5 as Answer | null) ?? null,
    dt1: bool(r.dt1),
    dt2: bool(r.dt2),
    dt3: bool(r.dt3),
    note: (r.note as string) ?? '',
    first_saved_at: (r.first_saved_at as string) ?? null,
    updated_at: (r.updated_at as string) ?? null,
  };
}

/** Owner-only modes: a rater file holds the session token. */
const PRIVATE_FILE = 0o600;
export const PRIVATE_FOLDER = 0o700;

/** Create `file` empty and owner-only unless it exists (an empty file is an empty database). */
function createPrivate(file: string): void {
  try {
    closeSync(openSync(file, 'wx', PRIVATE_FILE));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/** Tighten `file` and its SQLite side files to 0600, those that exist (older versions: 0644). */
function makePrivate(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    try {
      chmodSync(f, PRIVATE_FILE);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/** Take the one-server lock of a rater file, or say who holds it. */
function takeLock(file: string): Database.Database {
  mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_FOLDER });
  createPrivate(`${file}.lock`);
  makePrivate(`${file}.lock`);
  const lock = new Database(`${file}.lock`, { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec(
      `CREATE TABLE IF NOT EXISTS holder (pid INTEGER); DELETE FROM holder; INSERT INTO holder VALUES (${process.pid});`,
    );
    return lock;
  } catch (err) {
    lock.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') {
      throw StimkitError.fromProblem(
        {
          code: 'E_LABEL_STORE_BUSY',
          file,
          message: 'another `stimkit label serve` is already using this rater file',
          fix: 'use the server that is running (its URL was printed when it started), or stop it first',
        },
        err,
      );
    }
    throw err;
  }
}
