/** A minimal scores folder for the report's Pressure section: score.json and the tables given. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256 } from '../../src/core/fsio.js';
import { SCORES_FORMAT, SCORES_VERSION } from '../../src/score/format.js';
import { writePressureTables } from '../analyze/pressure-fixture.js';

/** A scores folder with just score.json and the given tables (listed with their sha256). */
export async function scoresFolder(dir: string, tables: Record<string, string>): Promise<void> {
  const files = Object.entries(tables).map(([file, text]) => ({
    file,
    rows: text.trim().split('\n').length - 1,
    sha256: sha256(text),
  }));
  const model = (name: string, records: number) => ({
    name,
    origin: 'US',
    vendor: 'sim',
    simulated: true,
    records,
  });
  const header = {
    format: SCORES_FORMAT,
    version: SCORES_VERSION,
    tool: { name: 'stimkit', version: 'test' },
    bundle: { digest: '0'.repeat(64), study: 'pressure-test' },
    inputs: [],
    params: { source: 'ledger', run: null, scorers: {} },
    counts: {
      records: 32,
      simulated: 32,
      models: [model('m1', 24), model('m2', 8)],
      by_paradigm: { pressure: 32 },
      by_reason: {},
      unscored: {},
    },
    files,
  };
  await writeFile(path.join(dir, 'score.json'), JSON.stringify(header, null, 2));
}

/** The hand-written pressure tables (test/analyze/pressure-fixture.ts) as a scores folder in `dir`. */
export async function pressureScores(dir: string): Promise<void> {
  const { texts } = await writePressureTables(dir);
  await scoresFolder(dir, {
    'pressure.csv': texts.turns,
    'pressure-conversations.csv': texts.conversations,
  });
}
