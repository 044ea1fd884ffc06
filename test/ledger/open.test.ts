/**
 * Opening a file that is not a ledger: a clear E_LEDGER_FORMAT (file, expected a stimkit run
 * ledger, got what the file is, fix), read-only and read-write alike, never SQLite's bare message.
 */
import Database from 'better-sqlite3';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StimkitError } from '../../src/core/errors.js';
import { openLedger } from '../../src/ledger/index.js';
import { openLedgerDb } from '../../src/ledger/open.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

function caught(f: () => unknown): StimkitError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(StimkitError);
    return err as StimkitError;
  }
  throw new Error('expected an error');
}

describe('opening a file that is not a ledger', () => {
  it('names the file, expected vs got and the fix, for a text file and for another SQLite database', async () => {
    const dir = await tempDir('stimkit-ledger-open-');
    const text = path.join(dir, 'bagit.txt');
    await writeFile(text, 'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n');
    for (const open of [
      () => openLedger(text),
      () => openLedgerDb(text),
      () => openLedgerDb(text, { readonly: true }),
    ]) {
      const e = caught(open);
      expect(e.code).toBe('E_LEDGER_FORMAT');
      expect(e.problems[0]).toMatchObject({
        file: text,
        expected: 'a stimkit run ledger (SQLite)',
        got: 'a file that is not an SQLite database',
      });
      expect(e.message).toContain('Fix: pass the --ledger file stimkit run wrote');
    }
    const other = path.join(dir, 'other.sqlite');
    const db = new Database(other);
    db.exec('CREATE TABLE t (x)');
    db.close();
    const e = caught(() => openLedger(other));
    expect(e.code).toBe('E_LEDGER_FORMAT');
    expect(e.problems[0]!.got).toContain('without the ledger');

    const r = await runCli([
      'run',
      'export',
      '--ledger',
      text,
      '--out',
      path.join(dir, 'x.jsonl'),
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_LEDGER_FORMAT');
    const h = await runCli(['run', 'export', '--ledger', text]);
    expect(h.stderr).toContain('not a stimkit ledger');
    expect(h.stderr).not.toContain('internal error');
  });
});
