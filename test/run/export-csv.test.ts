/**
 * `run export --format csv` writes a response a spreadsheet would run as a formula with a leading
 * `'` (src/core/csv.ts), and as it is with `--csv-raw`; JSONL keeps it as it is either way.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { readCsvObjects } from '../../src/core/csv.js';
import { runCli } from '../helpers/cli.js';
import { HOSTILE } from '../helpers/hostile.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from './fixture.js';
import { writeModels } from './helpers.js';
import { startServer, type TestServer } from './server.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

const FORMULA = HOSTILE[0]!;
let dir: string;
let ledger: string;
let server: TestServer;

beforeAll(async () => {
  dir = await tempDir('stimkit-run-export-csv-');
  const bag = path.join(dir, 'bag');
  await writeRunBag(bag, 2);
  server = await startServer(() => ({ kind: 'ok', text: FORMULA, reasoning: 'weighing it' }));
  const models = await writeModels(dir, [{ name: 'm', endpoint: server.url }]);
  ledger = path.join(dir, 'ledger.sqlite');
  const r = await runCli(['run', bag, '--models', models, '--ledger', ledger, '--json']);
  expect(r.code, r.stderr).toBe(0);
});
afterAll(() => server?.close());

/** The `response_text` cells of a CSV export, read raw (no `'` removed). */
async function exported(...extra: string[]): Promise<string[]> {
  const out = path.join(dir, `export${extra.join('')}.csv`);
  const r = await runCli([
    'run',
    'export',
    '--ledger',
    ledger,
    '--format',
    'csv',
    '--out',
    out,
    ...extra,
  ]);
  expect(r.code, r.stderr).toBe(0);
  const rows = readCsvObjects(await readFile(out, 'utf8'), { raw: true });
  expect(rows.length).toBeGreaterThan(0);
  return rows.map((row) => row.response_text!);
}

describe('run export --format csv', () => {
  it('neutralises a formula in a response', async () => {
    expect(new Set(await exported())).toEqual(new Set([`'${FORMULA}`]));
  });

  it('writes it as it is with --csv-raw', async () => {
    expect(new Set(await exported('--csv-raw'))).toEqual(new Set([FORMULA]));
  });

  it('keeps it as it is in JSONL', async () => {
    const r = await runCli(['run', 'export', '--ledger', ledger]);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { response_text: string });
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((x) => x.response_text))).toEqual(new Set([FORMULA]));
  });

  it('carries the reasoning channel: its text, visibility and tokens (none reported: empty)', async () => {
    const out = path.join(dir, 'reasoning.csv');
    const r = await runCli(['run', 'export', '--ledger', ledger, '--format', 'csv', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const text = await readFile(out, 'utf8');
    expect(text.split('\r\n')[0]).toContain(
      ',reasoning_text,reasoning_visibility,reasoning_tokens,',
    );
    const rows = readCsvObjects(text, { raw: true });
    for (const row of rows)
      expect([row.reasoning_text, row.reasoning_visibility, row.reasoning_tokens]).toEqual([
        'weighing it',
        'full',
        '',
      ]);
    const jsonl = await runCli(['run', 'export', '--ledger', ledger]);
    const first = JSON.parse(jsonl.stdout.split('\n')[0]!) as Record<string, unknown>;
    expect(first).toMatchObject({ reasoning_visibility: 'full', reasoning_tokens: null });
  });

  it('has every key of the JSONL rows as a column (the design fields included)', async () => {
    const out = path.join(dir, 'columns.csv');
    expect(
      (await runCli(['run', 'export', '--ledger', ledger, '--format', 'csv', '--out', out])).code,
    ).toBe(0);
    const header = (await readFile(out, 'utf8')).split('\r\n')[0]!.split(',');
    const jsonl = await runCli(['run', 'export', '--ledger', ledger]);
    const keys = Object.keys(JSON.parse(jsonl.stdout.split('\n')[0]!) as object);
    // model_set was in the JSONL only.
    expect([...keys].sort()).toEqual([...header].sort());
  });
});
