// `run export` names each trial's thinking level (the thinking factor, `on` or `off`): the demo's
// narrative trials are sent with thinking on and off, and an export read without the bundle must
// still say which was which. A ledger written before the column exports it empty (never a
// guessed level) and gains the levels when a run next records its trials.
import Database from 'better-sqlite3';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openBundle } from '../../src/bundle/reader.js';
import type { Trial } from '../../src/bundle/format.js';
import { readCsvObjects } from '../../src/core/csv.js';
import { openLedgerDb } from '../../src/ledger/open.js';
import { insertTrials } from '../../src/ledger/runs.js';
import { exportLedger } from '../../src/run/export.js';
import { heavyLimit } from '../helpers/limits.js';
import { sharedDemo } from '../helpers/shared-demo.js';
import { tempDir } from '../helpers/tmp.js';

let trials: Trial[];
let ledger: string;
let dir: string;

beforeAll(async () => {
  const demo = await sharedDemo();
  trials = await (await openBundle(path.join(demo.out, 'bundle'), 'E_TEST')).trials();
  dir = await tempDir('stimkit-export-thinking-');
  // A copy: the shared demo is read-only.
  ledger = path.join(dir, 'ledger.sqlite');
  await copyFile(path.join(demo.out, 'ledger.sqlite'), ledger);
}, heavyLimit(50)); // waits for the suite's one demo run (about 20–50 s of work on a quiet machine)

const csvRows = (file: string): Array<Record<string, string>> => {
  let text = '';
  exportLedger(file, 'csv', {}, (c) => (text += c));
  return readCsvObjects(text);
};

const jsonRows = (file: string): Array<Record<string, unknown>> => {
  let text = '';
  exportLedger(file, 'jsonl', {}, (c) => (text += c));
  return text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
};

describe('run export: the thinking level of each trial', () => {
  it('is the bundle trial’s level on every row (CSV and JSONL), empty without the factor', () => {
    const level = new Map(trials.map((t) => [t.id, t.thinking ?? null]));
    const csv = csvRows(ledger);
    const json = jsonRows(ledger);
    expect(csv.length).toBe(json.length);
    for (const [i, row] of csv.entries()) {
      const want = level.get(row.trial_id!);
      expect(want, row.trial_id).not.toBeUndefined();
      expect(row.thinking, row.trial_id).toBe(want ?? '');
      expect(json[i]!.thinking, row.trial_id).toBe(want);
    }
    // The demo plans its narrative block with thinking on and off: both levels are there.
    const seen = new Set(csv.map((r) => r.thinking));
    expect([...seen].sort()).toEqual(['', 'off', 'on']);
    // The column stands beside the other design fields.
    const header = Object.keys(csv[0]!);
    expect(header.indexOf('thinking')).toBe(header.indexOf('model_set') + 1);
  });

  it('reads as empty in a ledger written before the column, and is filled when a run records its trials', async () => {
    const old = path.join(dir, 'old.sqlite');
    await copyFile(ledger, old);
    const db = new Database(old);
    db.exec('ALTER TABLE trials DROP COLUMN thinking');
    db.close();
    // Read-only: the old ledger is read as it is, with no level guessed.
    const before = csvRows(old);
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((r) => r.thinking === '')).toBe(true);
    // A run opens it for writing (the column is added, NULL) and records the bundle's trials.
    const w = openLedgerDb(old);
    try {
      expect(csvRows(old).every((r) => r.thinking === '')).toBe(true);
      const runId = (
        w.prepare("SELECT run_id FROM runs WHERE label = 'main'").get() as {
          run_id: number;
        }
      ).run_id;
      insertTrials(w, runId, trials);
    } finally {
      w.close();
    }
    expect(csvRows(old)).toEqual(csvRows(ledger));
  });
});
