/**
 * Opening a ledger file: create it with the tables of schema.ts, or check that an existing file
 * is a stimkit ledger of a version this code reads. An existing file is identified read-only
 * first (its header, then its meta table through a read-only connection), so that another
 * application's database is refused without a byte of it changed (no WAL switch, no checkpoint).
 * WAL journal, synchronous NORMAL: a committed transaction survives a killed process (kill -9);
 * only a power cut can lose the last commits.
 */
import Database from 'better-sqlite3';
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { ioProblem, noteSqliteFile, sqliteCorrupt } from '../core/io-errors.js';
import { TOOL } from '../core/tool.js';
import {
  ADDED_COLUMNS,
  ADDED_TABLES,
  LEDGER_DDL,
  LEDGER_FORMAT,
  LEDGER_VERSION,
  READABLE_LEDGER_VERSIONS,
} from './schema.js';

export type Db = Database.Database;

/** Open (or, unless `readonly`, create) the ledger at `file`. */
export function openLedgerDb(file: string, options: { readonly?: boolean } = {}): Db {
  const readonly = options.readonly ?? false;
  if (readonly && !existsSync(file)) {
    throw StimkitError.fromProblem({
      code: 'E_LEDGER_NOT_FOUND',
      file,
      message: 'no ledger here',
      fix: 'pass the --ledger file stimkit run wrote',
    });
  }
  identify(file);
  noteSqliteFile(file);
  if (!readonly) mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  let db: Db;
  try {
    db = readonly
      ? openReader(file)
      : new Database(file, { readonly, fileMustExist: readonly, timeout: 10_000 });
  } catch (err) {
    throw StimkitError.fromProblem(
      {
        code: 'E_LEDGER_OPEN',
        file,
        message: `cannot open the ledger (${(err as Error).message})`,
        fix: 'check the path and its permissions',
      },
      err,
    );
  }
  try {
    if (!readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    if (!readonly) createIfEmpty(db);
    const version = checkMeta(db, file);
    if (!readonly) upgrade(db, version);
  } catch (err) {
    db.close();
    if (err instanceof StimkitError) throw err;
    throw (
      ioProblem(err, { file, writing: 'the ledger' }) ??
      notALedger(file, describeOpenFailure(err), err)
    );
  }
  return db;
}

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * Check, changing nothing, that an existing non-empty `file` is a stimkit ledger of a version
 * this code reads: its first bytes, then its meta table through a read-only connection. A file
 * that does not exist or is empty is a new ledger (nothing to check).
 */
function identify(file: string): void {
  if (!existsSync(file) || statSync(file).size === 0) return;
  const head = Buffer.alloc(16);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString('latin1') !== SQLITE_MAGIC)
    throw notALedger(file, 'a file that is not an SQLite database');
  noteSqliteFile(file);
  let db: Db | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: 10_000 });
    checkMeta(db, file);
  } catch (err) {
    if (err instanceof StimkitError) throw err;
    const code = (err as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
      throw sqliteCorrupt(file, err);
    throw notALedger(file, describeOpenFailure(err), err);
  } finally {
    db?.close();
  }
}

/** Create the ledger's tables in a database that has none (a new file). */
function createIfEmpty(db: Db): void {
  const tables = db
    .prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table'")
    .pluck()
    .get() as number;
  if (tables > 0) return;
  db.transaction(() => {
    db.exec(LEDGER_DDL);
    const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    put.run('format', LEDGER_FORMAT);
    put.run('version', String(LEDGER_VERSION));
    put.run('created_by', `${TOOL.name} ${TOOL.version}`);
  })();
}

/**
 * Refuse a database without the ledger's meta table, of another format, or of a version this code
 * does not read; returns the version.
 */
function checkMeta(db: Db, file: string): string {
  const hasMeta =
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get() !==
    undefined;
  if (!hasMeta) throw notALedger(file, "an SQLite database without the ledger's meta table");
  const meta = new Map(
    (db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>).map(
      (r) => [r.key, r.value],
    ),
  );
  if (meta.get('format') !== LEDGER_FORMAT)
    throw notALedger(
      file,
      `an SQLite database of format ${JSON.stringify(meta.get('format') ?? null)}`,
    );
  if (!READABLE_LEDGER_VERSIONS.includes(meta.get('version') ?? '')) {
    throw StimkitError.fromProblem({
      code: 'E_LEDGER_VERSION',
      file,
      message: 'this ledger version is not one this stimkit reads',
      expected: READABLE_LEDGER_VERSIONS.join(' or '),
      got: meta.get('version') ?? 'nothing',
      fix: 'use the stimkit version that wrote it, or start a new --ledger file',
    });
  }
  return meta.get('version')!;
}

/**
 * Bring a ledger written by an earlier stimkit up to this version, in one transaction: add the
 * columns of ADDED_COLUMNS it lacks (additive: every existing row keeps its values, the new
 * columns are NULL) and set `meta.version`. Stored outcomes keep their values (old names are
 * mapped on read, schema.ts `currentOutcome`).
 */
function upgrade(db: Db, version: string): void {
  const missing = ADDED_COLUMNS.filter(
    (c) =>
      !(db.prepare(`PRAGMA table_info(${c.table})`).all() as Array<{ name: string }>).some(
        (col) => col.name === c.column,
      ),
  );
  if (missing.length === 0 && version === String(LEDGER_VERSION)) return;
  db.transaction(() => {
    db.exec(ADDED_TABLES);
    for (const c of missing) db.exec(`ALTER TABLE ${c.table} ADD COLUMN ${c.column} ${c.type}`);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'version'").run(String(LEDGER_VERSION));
  })();
}

/**
 * A reader's connection. SQLite cannot clean up after a read-only connection: closing the last
 * connection to a WAL database deletes `-wal` and `-shm` only if it may write, so a reader opened
 * with `readonly` would leave both files behind. A reader therefore opens read-write with
 * `query_only` (every write refused), and falls back to a true read-only connection when the file
 * or its folder is not writable (the side files then stay, as SQLite needs).
 */
export function openReader(file: string): Db {
  noteSqliteFile(file);
  let db: Db | null = null;
  try {
    db = new Database(file, { fileMustExist: true, timeout: 10_000 });
    db.pragma('query_only = ON');
    return db;
  } catch {
    db?.close();
    return new Database(file, { readonly: true, fileMustExist: true, timeout: 10_000 });
  }
}

/** What SQLite said when reading the file failed, in words for `got`. */
function describeOpenFailure(err: unknown): string {
  const code = (err as { code?: string }).code;
  if (code === 'SQLITE_NOTADB') return 'a file that is not an SQLite database';
  if (code === 'SQLITE_CORRUPT') return 'a damaged SQLite database';
  return `a file SQLite cannot read (${(err as Error).message})`;
}

function notALedger(file: string, got: string, cause?: unknown): StimkitError {
  return StimkitError.fromProblem(
    {
      code: 'E_LEDGER_FORMAT',
      file,
      message: 'not a stimkit ledger',
      expected: 'a stimkit run ledger (SQLite)',
      got,
      fix: 'pass the --ledger file stimkit run wrote (or a new file name to start one)',
    },
    cause,
  );
}
