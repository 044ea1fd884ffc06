/**
 * A full disk and a damaged SQLite file as coded errors instead of internal ones: Node's ENOSPC
 * (and EDQUOT), SQLite's SQLITE_FULL (and an I/O error on a file system with no space left) are
 * `E_DISK_FULL`; SQLITE_CORRUPT and SQLITE_NOTADB are `E_LEDGER_CORRUPT`. SQLite does not say
 * which file it was writing, so every SQLite file this process opens is noted (`noteSqliteFile`)
 * and named when the caller cannot say.
 */
import { statfsSync } from 'node:fs';
import path from 'node:path';
import { StimkitError } from './errors.js';

/** The SQLite files opened by this process (ledgers, label stores), in order of first opening. */
const sqliteFiles: string[] = [];

/** Note an SQLite file this process opened, to name it should SQLite report a problem. */
export function noteSqliteFile(file: string): void {
  const abs = path.resolve(file);
  if (!sqliteFiles.includes(abs)) sqliteFiles.push(abs);
}

/** Where a write failed: the file (or null when unknown) and what was being written. */
export interface WriteSite {
  file?: string | null;
  writing?: string;
}

/** E_DISK_FULL: the file, what was being written, that nothing recorded was lost, to rerun. */
function diskFull(site: WriteSite, cause?: unknown): StimkitError {
  // With `file` the message starts with it (formatProblem); otherwise the files SQLite may mean.
  const known = site.file ? null : knownFiles();
  const where = known ? ` (${known})` : '';
  return StimkitError.fromProblem(
    {
      code: 'E_DISK_FULL',
      ...(site.file ? { file: site.file } : {}),
      message: `no space left on the disk while writing ${site.writing ?? 'a file'}${where}; nothing already written was lost (files are replaced whole, ledger rows are committed transactions)`,
      fix: `free space on that disk (df -h ${site.file ? path.dirname(path.resolve(site.file)) : '.'}) and run the same command again: it resumes where this one stopped (a run re-sends only the requests that were in flight)`,
    },
    cause,
  );
}

/** E_LEDGER_CORRUPT: the damaged file and how to recover its rows. */
export function sqliteCorrupt(file: string | null, cause?: unknown): StimkitError {
  const name = file ?? knownFiles() ?? 'the SQLite file';
  const what = file ? 'a damaged SQLite database' : `${name} is a damaged SQLite database`;
  return StimkitError.fromProblem(
    {
      code: 'E_LEDGER_CORRUPT',
      ...(file ? { file } : {}),
      message: `${what} (SQLite: ${(cause as Error | undefined)?.message ?? 'malformed'}); stimkit did not change it`,
      fix: `keep a copy, recover its rows into a new file with sqlite3 "${name}" ".recover" | sqlite3 "${name}.recovered", check it, and use the recovered file in its place`,
    },
    cause,
  );
}

/** The files SQLite may have meant, when the caller cannot say (null: none opened). */
function knownFiles(): string | null {
  if (sqliteFiles.length === 0) return null;
  return sqliteFiles.length === 1 ? sqliteFiles[0]! : `one of ${sqliteFiles.join(', ')}`;
}

/** Whether the file system holding `file` has no space left (false when it cannot be told). */
function noSpaceAt(file: string | null | undefined): boolean {
  const targets = file ? [file] : sqliteFiles;
  return targets.some((f) => {
    try {
      const s = statfsSync(path.dirname(path.resolve(f)));
      return s.bavail * s.bsize < 64 * 1024;
    } catch {
      return false;
    }
  });
}

/**
 * The coded error for a full disk or a damaged SQLite file, or null for any other error (a
 * StimkitError is already coded: null).
 */
export function ioProblem(err: unknown, site: WriteSite = {}): StimkitError | null {
  if (err instanceof StimkitError || !(err instanceof Error)) return null;
  const e = err as Error & { code?: unknown; path?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    const file = site.file ?? (typeof e.path === 'string' ? e.path : null);
    return diskFull(
      { ...site, file, writing: site.writing ?? (file ? 'this file' : undefined) },
      err,
    );
  }
  if (!code.startsWith('SQLITE_')) return null;
  if (code === 'SQLITE_FULL' || (code.startsWith('SQLITE_IOERR') && noSpaceAt(site.file)))
    return diskFull({ ...site, writing: site.writing ?? 'an SQLite database' }, err);
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
    return sqliteCorrupt(site.file ?? null, err);
  return null;
}
