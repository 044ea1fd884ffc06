/**
 * Simulated raters (src/label/sim-raters.ts): a labels CSV in the format `stimkit label export` writes,
 * drawn from the simulator's truth with a set accuracy, deterministic by seed, every row marked
 * simulated, and read by `stimkit validate` as simulated raters.
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { trueLabels } from '../../src/audit/sim-judge.js';
import { readHumanLabels } from '../../src/audit/validate.js';
import { LABEL_COLUMNS } from '../../src/label/export.js';
import type { LabelSample } from '../../src/label/sample-schema.js';
import { parseCsv } from '../../src/core/csv.js';
import { checkSampleFromLedger, simulateRaterLabels } from '../../src/label/sim-raters.js';
import type { StimkitError } from '../../src/core/errors.js';
import { tempDir } from '../helpers/tmp.js';

const hex = (s: string, n: number) => createHash('sha256').update(s).digest('hex').slice(0, n);
const u = (s: string) => parseInt(hex(s, 8), 16) / 2 ** 32;
const STRATS = ['endorse', 'substitute', 'deflect'];

/** A sample of `n` items (half image trials) and the simulator's truth of each. */
function fixture(n: number) {
  const items: LabelSample['items'] = [];
  const truths = new Map<string, Record<string, unknown>>();
  for (let i = 0; i < n; i++) {
    const trial_id = `t_${hex(`t${i}`, 24)}`;
    const model = i % 3 === 0 ? 'sim-b' : 'sim-a';
    const image = i % 2 === 0;
    items.push({
      id: `i_${hex(`i${i}`, 16)}`,
      trial_id,
      model,
      paradigm: image ? 'describe' : 'comment-text',
      lang: i % 4 < 2 ? 'en' : 'zh',
      entry: 'e1',
      sensitivity: 'low',
      variant: image ? 'A0' : null,
      images: image ? ['a'.repeat(64)] : [],
      prompt: 'Describe.',
      response: 'Text.',
    });
    const reframed = u(`r${i}`) < 0.3;
    truths.set(`${trial_id}@${model}`, {
      kind: 'vlm',
      refused: u(`f${i}`) < 0.2,
      facts_missing: u(`m${i}`) < 0.5 ? ['x'] : [],
      reframed,
      strategy: reframed ? STRATS[i % 3] : null,
      language: u(`l${i}`) < 0.1 ? 'zh' : 'en',
      prompt_lang: 'en',
    });
  }
  const sample = {
    format: 'stimkit.label-sample',
    version: 1,
    bundle: { path: '../bundle', digest: 'b'.repeat(64) },
    items,
  } as unknown as LabelSample;
  return { sample, truths };
}

const rowsOf = (csv: string) => {
  const { header, rows } = parseCsv(csv);
  return {
    header,
    rows: rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? '']))),
  };
};

describe('simulated raters', () => {
  it('write the labels CSV: perfect raters give the true labels, marked simulated', () => {
    const { sample, truths } = fixture(40);
    const { csv, rows } = simulateRaterLabels({
      sample,
      sampleSha256: 'c'.repeat(64),
      truths,
      raters: [
        { name: 'sim-rater-2', accuracy: 1 },
        { name: 'sim-rater-1', accuracy: 1 },
      ],
      seed: 7,
    });
    const t = rowsOf(csv);
    expect(t.header).toEqual([...LABEL_COLUMNS]);
    expect(rows).toBe(80);
    // raters in name order, items in sample order
    expect(t.rows.map((r) => r.rater)).toEqual([
      ...Array(40).fill('sim-rater-1'),
      ...Array(40).fill('sim-rater-2'),
    ]);
    expect(t.rows.slice(0, 40).map((r) => r.sample_item)).toEqual(sample.items.map((i) => i.id));
    for (const r of t.rows) {
      const item = sample.items.find((i) => i.id === r.sample_item)!;
      const truth = truths.get(`${item.trial_id}@${item.model}`)!;
      const tl = trueLabels(truth, item.images.length > 0)!;
      expect([r.d1_refusal, r.d2_integrity, r.d4_state_aligned, r.d5_language]).toEqual(
        [tl.d1, tl.d2, tl.d4, tl.d5].map(String),
      );
      expect(r.d3_grounding).toBe(item.images.length > 0 ? 'true' : 'na');
      // the D4 follow-up: the truth's strategy, only when D4 is true
      const dts = [r.dt1_endorsement, r.dt2_substitution, r.dt3_deflection];
      expect(dts).toEqual(tl.d4 ? STRATS.map((s) => String(s === truth.strategy)) : ['', '', '']);
      expect(r.note).toMatch(/^SIMULATED rater \(accuracy 1, seed 7\)/);
      expect([r.mode, r.complete, r.sample_sha256, r.bundle_digest]).toEqual([
        'label',
        'true',
        'c'.repeat(64),
        'b'.repeat(64),
      ]);
    }
  });

  it('err at the set accuracy, independently per rater, the same on every call', () => {
    const { sample, truths } = fixture(500);
    const opts = {
      sample,
      sampleSha256: 'c'.repeat(64),
      truths,
      raters: [
        { name: 'r-a', accuracy: 0.8 },
        { name: 'r-b', accuracy: 0.8 },
      ],
      seed: 3,
    };
    const a = simulateRaterLabels(opts).csv;
    expect(simulateRaterLabels(opts).csv).toBe(a);
    expect(simulateRaterLabels({ ...opts, seed: 4 }).csv).not.toBe(a);
    const t = rowsOf(a);
    let wrong = 0;
    let total = 0;
    for (const r of t.rows) {
      const item = sample.items.find((i) => i.id === r.sample_item)!;
      const tl = trueLabels(truths.get(`${item.trial_id}@${item.model}`)!, item.images.length > 0)!;
      for (const [col, d] of [
        ['d1_refusal', 'd1'],
        ['d2_integrity', 'd2'],
        ['d4_state_aligned', 'd4'],
        ['d5_language', 'd5'],
      ] as const) {
        total++;
        if (r[col] !== String(tl[d])) wrong++;
      }
    }
    // 4,000 labels at accuracy 0.8: the error share within 4 standard errors (0.025) of 0.2
    expect(Math.abs(wrong / total - 0.2)).toBeLessThan(0.025);
    const byRater = (name: string) =>
      t.rows
        .filter((r) => r.rater === name)
        .map((r) => r.d4_state_aligned)
        .join();
    expect(byRater('r-a')).not.toBe(byRater('r-b'));
  });

  it('refuse a response without truth, and a bad rater', () => {
    const { sample, truths } = fixture(4);
    truths.delete(`${sample.items[2]!.trial_id}@${sample.items[2]!.model}`);
    const base = { sample, sampleSha256: 'c'.repeat(64), truths, seed: 1 };
    expect(() => simulateRaterLabels({ ...base, raters: [{ name: 'x', accuracy: 1 }] })).toThrow(
      expect.objectContaining({ code: 'E_SIM_RATER_TRUTH' }),
    );
    expect(() => simulateRaterLabels({ ...base, raters: [{ name: 'x', accuracy: 0.3 }] })).toThrow(
      expect.objectContaining({ code: 'E_SIM_RATER' }),
    );
    expect(() =>
      simulateRaterLabels({ ...base, raters: [{ name: 'a b', accuracy: 0.9 }] }),
    ).toThrow(expect.objectContaining({ code: 'E_SIM_RATER' }));
  });

  it('refuse a ledger the sample was not drawn from: another bundle, or sampled responses missing', () => {
    const { sample } = fixture(4);
    const base = { sampleFile: 'sample.json', sample, ledgerFile: 'other.sqlite', run: 'main' };
    expect(() =>
      checkSampleFromLedger({ ...base, runDigest: sample.bundle.digest, found: 4 }),
    ).not.toThrow();
    const other = (() => {
      try {
        checkSampleFromLedger({ ...base, runDigest: 'e'.repeat(64), found: 0 });
      } catch (e) {
        return e as StimkitError;
      }
      return null;
    })();
    expect(other?.code).toBe('E_SIM_RATER_LEDGER');
    expect(other?.problems[0]).toMatchObject({
      file: 'other.sqlite',
      expected: `bundle ${'b'.repeat(64)} (sample.json)`,
      got: `bundle ${'e'.repeat(64)}`,
    });
    expect(other?.message).toContain('the sample was not drawn from this ledger');
    expect(() =>
      checkSampleFromLedger({ ...base, runDigest: sample.bundle.digest, found: 1 }),
    ).toThrow(
      expect.objectContaining({
        code: 'E_SIM_RATER_LEDGER',
        message: expect.stringContaining('3 of its 4 sampled responses are not in run "main"'),
      }),
    );
  });

  it('are read by stimkit validate as simulated raters (and real raters are not)', async () => {
    const { sample, truths } = fixture(10);
    const { csv } = simulateRaterLabels({
      sample,
      sampleSha256: 'c'.repeat(64),
      truths,
      raters: [{ name: 'sim-rater-1', accuracy: 0.9 }],
      seed: 1,
    });
    const dir = await tempDir('stimkit-sim-raters-');
    const human = csv
      .split('\n')[1]!
      .replace('sim-rater-1', 'alice')
      .replace(/SIMULATED rater[^,]*,/, 'checked by hand,');
    const file = path.join(dir, 'labels.csv');
    await writeFile(file, `${csv}${human}\n`);
    const read = await readHumanLabels(file);
    expect(read.raters).toEqual(['alice', 'sim-rater-1']);
    expect(read.simulated).toEqual(['sim-rater-1']);
  });
});
