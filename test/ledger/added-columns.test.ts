// A ledger written before the sent_images and cost_usd columns existed: a reader sees them as
// empty, and the first run that opens it for writing adds them (earlier rows keep every value).
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openLedgerDb } from '../../src/ledger/open.js';
import { openLedger, type LedgerResult } from '../../src/ledger/read.js';
import { ADDED_COLUMNS, LEDGER_DDL, LEDGER_VERSION } from '../../src/ledger/schema.js';
import { tempDir } from '../helpers/tmp.js';

/** A version-1 ledger as the first release wrote it: today's DDL without the added columns. */
function oldLedger(file: string): void {
  const db = new Database(file);
  const at = LEDGER_DDL.indexOf('CREATE TABLE results');
  let results = LEDGER_DDL.slice(at);
  for (const c of ADDED_COLUMNS.filter((x) => x.table === 'results'))
    results = results.replace(new RegExp(`\\n\\s+${c.column}\\s+${c.type},`), '');
  expect(results).not.toMatch(/sent_images|cost_usd|route_provider|request_id|endpoint/);
  // Version 3's writers: no writers table, no owner identity in the lock, no attempts.writer_id.
  const ddl = (LEDGER_DDL.slice(0, at) + results)
    .replace(/CREATE TABLE IF NOT EXISTS writers \([^;]*\);/, '')
    .replace(
      /,\n\s+writer_id\s+TEXT(,\n\s+pid_ns\s+TEXT,\n\s+start_time\s+TEXT,\n\s+boot_id\s+TEXT)?\n\)/g,
      '\n)',
    );
  expect(ddl).not.toMatch(/writer|pid_ns|start_time|boot_id/);
  db.exec(ddl);
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
  // Outcome names of version 1, before "who said no".
  const old = db.prepare(
    `INSERT INTO results (run_id, model, trial_id, bundle_digest, outcome, request_sha256, http_status, error_class, attempts, finished_at)
     VALUES (1, 'old', ?, 'd', ?, 'h', ?, ?, 1, 't')`,
  );
  for (const [t, outcome, status, errorClass] of [
    ['t1', 'content_filter', 200, null],
    ['t2', 'policy_refusal', 400, 'policy_refusal'],
    ['t3', 'policy_refusal', 200, null],
    ['t4', 'empty', 200, null],
    ['t5', 'length', 200, null],
    // Anthropic's stop_reason refusal (its streaming classifiers), as version 1 stored it and as
    // version 2 stored it before reading it as a provider block.
    ['t6', 'policy_refusal', 200, 'refusal'],
    ['t7', 'model_refusal', 200, 'refusal'],
  ] as const)
    old.run(t, outcome, status, errorClass);
  db.close();
}

/** The fields of results() that responses() gives. */
const responseOf = (x: LedgerResult) => ({
  model: x.model,
  trial_id: x.trial_id,
  outcome: x.outcome,
  text: x.text,
  reasoning: x.reasoning,
  finish_reason: x.finish_reason,
  simulated: x.simulated,
  truth: x.truth,
  error_class: x.error_class,
  error_body: x.error_body,
  route_provider: x.route_provider,
  route: x.route,
  reasoning_visibility: x.reasoning_visibility,
  reasoning_tokens: x.reasoning_tokens,
});

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
    const [r] = [...reader.results({ model: 'm' })];
    expect([...reader.results({ model: 'old' })].map((x) => x.outcome)).toEqual([
      'provider_block',
      'provider_block',
      'model_refusal',
      'suppressed',
      'length',
      'provider_block',
      'provider_block',
    ]);
    expect(reader.counts().filter((c) => c.model === 'old')).toEqual([
      { model: 'old', outcome: 'length', n: 1 },
      { model: 'old', outcome: 'model_refusal', n: 1 },
      { model: 'old', outcome: 'provider_block', n: 4 },
      { model: 'old', outcome: 'suppressed', n: 1 },
    ]);
    reader.close();
    expect(r).toMatchObject({ text: 'old answer', sent_images: [], cost_usd: null });
    const before = openLedger(file);
    // no sent_images nor cost_usd column yet: no images, no cost, as results() reads them
    expect([...before.sentImages()]).toEqual([]);
    expect([...before.usage()]).toEqual(
      [...before.results()].map((x) => ({ model: x.model, usage: null, cost_usd: null })),
    );
    // nor route or reasoning columns: read as NULL, as results() reads them
    expect([...before.responses()]).toEqual([...before.results()].map(responseOf));
    expect([...before.responses({ model: 'old' })]).toEqual(
      [...before.results({ model: 'old' })].map(responseOf),
    );
    before.close();
    expect(columns(file)).not.toContain('cost_usd');

    openLedgerDb(file).close();
    expect(columns(file)).toEqual(
      expect.arrayContaining(
        ADDED_COLUMNS.filter((c) => c.table === 'results').map((c) => c.column),
      ),
    );
    const meta = new Database(file, { readonly: true });
    expect(meta.prepare("SELECT value FROM meta WHERE key = 'version'").pluck().get()).toBe(
      String(LEDGER_VERSION),
    );
    expect(
      meta.prepare("SELECT name FROM sqlite_master WHERE name = 'writers'").pluck().get(),
    ).toBe('writers');
    meta.close();
    const again = openLedger(file);
    expect([...again.results({ model: 'm' })][0]).toMatchObject({
      text: 'old answer',
      cost_usd: null,
      route: 'unknown',
      endpoint: null,
    });
    again.close();
  });
});

describe('the sent images, the usage and the responses of a run', () => {
  it('are what results() records, read without the other rows and columns', async () => {
    const file = path.join(await tempDir('stimkit-ledger-sent-'), 'sent.sqlite');
    oldLedger(file);
    openLedgerDb(file).close();
    const db = new Database(file);
    const image = (n: number) => ({
      source: `s${n}`,
      sha256: `h${n}`,
      bytes: n,
      mime: 'image/png',
    });
    const put = db.prepare(
      `INSERT INTO results (run_id, model, trial_id, bundle_digest, outcome, request_sha256, attempts, finished_at, sent_images)
       VALUES (1, ?, ?, 'd', 'answer', 'h', 1, 't', ?)`,
    );
    db.prepare(
      "INSERT INTO trials (run_id, trial_id, block, paradigm, lang, entry, variant) VALUES (1, 't9', 'describe', 'describe', 'en', 'e9', 'A2')",
    ).run();
    put.run('b', 't9', JSON.stringify([image(1), image(2)]));
    db.prepare(
      `UPDATE results SET usage = '{"prompt_tokens":7,"completion_tokens":2}', cost_usd = 0.25,
         route_provider = 'P', reasoning_text = 'r', reasoning_visibility = 'summary',
         reasoning_tokens = 3, simulated = 1, truth = '{"refusal":true}', error_body = 'e'
       WHERE model = 'old' AND trial_id = 't3'`,
    ).run();
    put.run('a', 't9', JSON.stringify([image(3)]));
    put.run('a', 't1', '[]');
    put.run('c', 't1', 'null');
    db.close();
    const reader = openLedger(file);
    const expected = [...reader.results()].flatMap((x) =>
      x.sent_images.length === 0
        ? []
        : [
            {
              model: x.model,
              trial_id: x.trial_id,
              entry: x.trial.entry,
              variant: x.trial.variant,
              images: x.sent_images,
            },
          ],
    );
    expect(expected.map((x) => x.model)).toEqual(['a', 'b']);
    expect([...reader.sentImages()]).toEqual(expected);
    const all = [...reader.results()];
    expect(all.filter((x) => x.cost_usd !== null)).toHaveLength(1);
    expect([...reader.usage()]).toEqual(
      all.map((x) => ({ model: x.model, usage: x.usage, cost_usd: x.cost_usd })),
    );
    expect([...reader.responses()]).toEqual(all.map(responseOf));
    reader.close();
  });
});
