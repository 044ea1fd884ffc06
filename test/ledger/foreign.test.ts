/**
 * Another application's SQLite database given as `--ledger` is identified read-only and refused
 * (E_LEDGER_FORMAT) by every command that opens a ledger, with its bytes unchanged: it is never
 * switched to WAL, checkpointed or upgraded. A ledger damaged in a page is E_LEDGER_CORRUPT naming
 * the file and `sqlite3 FILE ".recover"`, never an internal error.
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/core/fsio.js';
import { openLedger } from '../../src/ledger/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from '../run/fixture.js';
import { writeModels } from '../run/helpers.js';
import { startServer, type TestServer } from '../run/server.js';
import { instrumentBundle } from '../score/fixture.js';

let dir: string;
let bag: string;
let models: string;
let firstTrial: string;
let server: TestServer;
let study: string;
beforeAll(async () => {
  dir = await tempDir('stimkit-ledger-foreign-');
  bag = path.join(dir, 'bag');
  const { trials } = await writeRunBag(bag, 4);
  firstTrial = trials[0]!.id;
  study = (await instrumentBundle(await tempDir('stimkit-ledger-foreign-study-'))).bundle;
  server = await startServer();
  models = await writeModels(dir, [{ name: 'm', endpoint: server.url }]);
});
afterAll(() => server.close());

/** The sha256 of a file and of the side files beside it (-wal, -shm, -journal) that exist. */
function fingerprint(file: string): Record<string, string> {
  const folder = path.dirname(file);
  const base = path.basename(file);
  return Object.fromEntries(
    readdirSync(folder)
      .filter((f) => f === base || f === `${base}-journal`)
      .map((f) => [f, sha256(readFileSync(path.join(folder, f)))]),
  );
}

/** Another application's database in rollback-journal mode (SQLite's default). */
function foreignDb(file: string): void {
  const db = new Database(file);
  db.exec(
    "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me')",
  );
  db.close();
}

describe("another application's SQLite file", () => {
  it('is refused by run, batch import, score and run export with its bytes unchanged', async () => {
    const other = path.join(dir, 'other.db');
    foreignDb(other);
    const before = fingerprint(other);
    const output = path.join(dir, 'out.jsonl');
    writeFileSync(
      output,
      `${JSON.stringify({
        id: 'r0',
        custom_id: firstTrial,
        response: {
          status_code: 200,
          body: { model: 'm', choices: [{ message: { content: 'hi' }, finish_reason: 'stop' }] },
        },
        error: null,
      })}\n`,
    );
    const commands = [
      ['run', bag, '--models', models, '--model', 'm', '--ledger', other],
      [
        'batch',
        'import',
        output,
        '--bundle',
        bag,
        '--model',
        'm',
        '--models',
        models,
        '--ledger',
        other,
      ],
      ['score', '--bundle', study, '--ledger', other, '--out', path.join(dir, 'scores')],
      ['run', 'export', '--ledger', other, '--out', path.join(dir, 'x.jsonl')],
    ];
    for (const args of commands) {
      const r = await runCli([...args, '--json']);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1);
      expect(r.json().error.code, args.join(' ')).toBe('E_LEDGER_FORMAT');
      expect(fingerprint(other), args.join(' ')).toEqual(before);
      expect(
        readdirSync(dir).filter((f) => f.startsWith('other.db-')),
        args.join(' '),
      ).toEqual([]);
    }
  });

  it('in WAL mode with pages not yet checkpointed: a reader (view, score) leaves its file and WAL as they were', () => {
    const live = path.join(dir, 'live.db');
    const db = new Database(live);
    db.pragma('journal_mode = WAL');
    db.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('in the WAL')");
    // A copy taken while the application holds it open: its last commits are only in the WAL.
    const copy = path.join(dir, 'copy.db');
    copyFileSync(live, copy);
    copyFileSync(`${live}-wal`, `${copy}-wal`);
    db.close();
    const hashes = () =>
      [copy, `${copy}-wal`].map((f) => (existsSync(f) ? sha256(readFileSync(f)) : 'missing'));
    const before = hashes();
    expect(() => openLedger(copy)).toThrow(/not a stimkit ledger/);
    expect(hashes()).toEqual(before);
  });
});

describe('a damaged ledger', () => {
  it('is E_LEDGER_CORRUPT naming the file and the sqlite3 .recover fix, for run and run export', async () => {
    const ledger = path.join(dir, 'damaged.sqlite');
    const ok = await runCli(['run', bag, '--models', models, '--model', 'm', '--ledger', ledger]);
    expect(ok.code, ok.stderr).toBe(0);
    // Damage the first page of the results table (after the run closed the file: no WAL left).
    const db = new Database(ledger, { readonly: true });
    const root = db
      .prepare("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'results'")
      .pluck()
      .get() as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.close();
    const bytes = readFileSync(ledger);
    bytes.fill(0xa5, (root - 1) * pageSize, (root - 1) * pageSize + 64);
    writeFileSync(ledger, bytes);
    for (const args of [
      ['run', 'export', '--ledger', ledger, '--out', path.join(dir, 'damaged.jsonl')],
      ['run', bag, '--models', models, '--model', 'm', '--ledger', ledger],
    ]) {
      const r = await runCli([...args, '--json']);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).not.toContain('internal error');
      const error = r.json().error;
      expect(error.code, r.stderr).toBe('E_LEDGER_CORRUPT');
      expect(`${error.message} ${error.fix ?? ''}`).toContain(ledger);
      expect(`${error.message} ${error.fix ?? ''}`).toContain('.recover');
    }
  });
});
