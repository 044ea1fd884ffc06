// A ledger written before the sent_images and cost_usd columns existed: a reader sees them as
// empty, and the first run that opens it for writing adds them (earlier rows keep every value).
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openLedgerDb } from '../../src/ledger/open.js';
import { openLedger } from '../../src/ledger/read.js';
import { LEDGER_DDL } from '../../src/ledger/schema.js';
import { tempDir } from '../helpers/tmp.js';

/** A version-1 ledger as the first release wrote it: today's DDL without the added columns. */
function oldLedger(file: string): void {
  const db = new Database(file);
  db.exec(LEDGER_DDL.replace(/\n\s+sent_images\s+TEXT,\n\s+cost_usd\s+REAL,/, ''));
  const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
  put.run('format', 'stimkit.ledger');
  put.run('version', '1');
  db.prepare(
    "INSERT INTO runs (run_id, label, bundle_digest, created_at, tool_version) VALUES (1, 'main', 'd', 't', '0')",
  ).run();
  db.prepare(
    "INSERT INTO trials (run_id, trial_id, block, paradigm, lang) VALUES (1, 't1', 'describe', 'describe', 'en')",
  ).run();
  db.prepare(
    `INSERT INTO results (run_id, model, trial_id, bundle_digest, outcome, request_sha256, response_text, attempts, finished_at)
     VALUES (1, 'm', 't1', 'd', 'answer', 'h', 'old answer', 1, 't')`,
  ).run();
  db.close();
}

const columns = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('PRAGMA table_info(results)').all() as Array<{ name: string }>).map(
      (c) => c.name,
    );
  } finally {
    db.close();
  }
};

describe('columns added after version 1', () => {
  it('reads an older ledger as it is, and adds the columns when a run opens it for writing', async () => {
    const file = path.join(await tempDir('stimkit-ledger-old-'), 'old.sqlite');
    oldLedger(file);
    expect(columns(file)).not.toContain('cost_usd');
    const reader = openLedger(file);
    const [r] = [...reader.results()];
    reader.close();
    expect(r).toMatchObject({ text: 'old answer', sent_images: [], cost_usd: null });
    expect(columns(file)).not.toContain('cost_usd');

    openLedgerDb(file).close();
    expect(columns(file)).toEqual(expect.arrayContaining(['sent_images', 'cost_usd']));
    const again = openLedger(file);
    expect([...again.results()][0]).toMatchObject({ text: 'old answer', cost_usd: null });
    again.close();
  });
});
