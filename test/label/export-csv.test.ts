/**
 * `stimkit label export`: every row says whether the labelled response was simulated (the
 * sample records it per item), a rater's note that a spreadsheet would run as a formula is
 * neutralised (raw with --csv-raw), and a failed export leaves the earlier labels CSV as it was.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { exportLabels } from '../../src/label/export.js';
import { readLabelSample } from '../../src/label/load-sample.js';
import { makeLabelSample } from '../../src/label/make-sample.js';
import type { LabelSample } from '../../src/label/sample-schema.js';
import { raterFile } from '../../src/label/serve.js';
import { LabelStore } from '../../src/label/store.js';
import { runCli } from '../helpers/cli.js';
import { HOSTILE } from '../helpers/hostile.js';
import { tempDir } from '../helpers/tmp.js';
import { writeLabelFixture } from './fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

let dir: string;
let sampleFile: string;
let sample: LabelSample;

beforeAll(async () => {
  dir = await tempDir('stimkit-label-export-');
  const fx = await writeLabelFixture(dir);
  // model-a is a simulated respondent; the others are not
  const lines = (await readFile(fx.responses, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { model: string })
    .map((r) => JSON.stringify(r.model === 'model-a' ? { ...r, simulated: true } : r));
  const responses = path.join(dir, 'responses-sim.jsonl');
  await writeFile(responses, `${lines.join('\n')}\n`);
  sampleFile = path.join(dir, 'sample.json');
  await makeLabelSample({ bundle: fx.bundle, responses, out: sampleFile, n: 12, seed: 7 });
  const opened = await readLabelSample(sampleFile);
  sample = opened.sample;
  const store = LabelStore.open(raterFile(sampleFile, 'alice', 'label'), {
    sample_sha256: opened.sha256,
    bundle_digest: sample.bundle.digest,
    rater: 'alice',
    mode: 'label',
  });
  sample.items.forEach((item, i) =>
    store.save(item.id, { field: 'note', value: HOSTILE[i % HOSTILE.length]! }),
  );
  store.close();
});

const rowsOf = async (file: string) =>
  parse<Record<string, string>>(await readFile(file, 'utf8'), { columns: true });

describe('label export', () => {
  it('marks each row simulated or not, from the sample', async () => {
    expect(new Set(sample.items.map((i) => i.model)).size).toBeGreaterThan(1);
    const out = path.join(dir, 'labels.csv');
    await exportLabels({ sample: sampleFile, out });
    const rows = await rowsOf(out);
    expect(rows).toHaveLength(sample.items.length);
    for (const r of rows) expect(r.simulated, r.model).toBe(r.model === 'model-a' ? '1' : '0');
    const wide = path.join(dir, 'labels-wide.csv');
    await exportLabels({ sample: sampleFile, out: wide, wide: true });
    for (const r of await rowsOf(wide))
      expect(r.simulated, r.model).toBe(r.model === 'model-a' ? '1' : '0');
  });

  it('neutralises notes a spreadsheet would run as formulas; --csv-raw keeps them', async () => {
    const out = path.join(dir, 'labels-notes.csv');
    expect((await runCli(['label', 'export', sampleFile, '--out', out])).code).toBe(0);
    const byItem = new Map(sample.items.map((item, i) => [item.id, HOSTILE[i % HOSTILE.length]!]));
    for (const r of await rowsOf(out)) expect(r.note).toBe(`'${byItem.get(r.sample_item!)}`);
    const raw = path.join(dir, 'labels-raw.csv');
    expect((await runCli(['label', 'export', sampleFile, '--out', raw, '--csv-raw'])).code).toBe(0);
    for (const r of await rowsOf(raw)) expect(r.note).toBe(byItem.get(r.sample_item!));
  });

  it('a failed export leaves the earlier labels CSV as it was', async () => {
    const out = path.join(dir, 'labels-keep.csv');
    await writeFile(out, 'earlier labels\n');
    const r = await runCli([
      'label',
      'export',
      sampleFile,
      '--out',
      out,
      '--labels',
      path.join(dir, 'no-such-folder'),
    ]);
    expect(r.code).toBe(1);
    expect(await readFile(out, 'utf8')).toBe('earlier labels\n');
  });
});
