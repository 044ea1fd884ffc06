// Seeded wrapper draws: the documented worked example (checked against docs/formats/wrappers.md),
// reproducibility, independence of prefix and suffix, and chi-square uniformity over a
// fixed-seed sample of 10,000 draws (deterministic, since the seed is fixed).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import { describe, expect, it } from 'vitest';
import { StimkitError } from '../../src/core/errors.js';
import {
  drawIndex,
  drawKey,
  drawU64,
  drawWrappers,
  type DrawTrial,
} from '../../src/stimuli/draw.js';
import { INSTRUMENT_SEPARATOR, renderInstrumentPrompt } from '../../src/stimuli/render.js';
import { loadWrapperPools } from '../../src/stimuli/wrappers.js';
import { ROOT } from '../helpers/cli.js';

const pools = await loadWrapperPools(path.join(ROOT, 'manifests', 'wrappers.yaml'));
const trial: DrawTrial = {
  globalSeed: 42,
  topic: 'taiwan',
  lang: 'en',
  framing: 'affirmative',
  iteration: 0,
};

/**
 * The worked example of docs/formats/wrappers.md, computed independently with Python's hashlib:
 *   k = 'stimkit-wrapper-draw/v1|42|taiwan|en|affirmative|0|prefix'
 *   int.from_bytes(hashlib.sha256(k.encode()).digest()[:8], 'big') % 10
 */
const EXAMPLE = {
  prefixKey: 'stimkit-wrapper-draw/v1|42|taiwan|en|affirmative|0|prefix',
  prefixSha256: '85aee0b32eb16f1b89d5ce2fea33347f31b84eccb9f7579eb40b0be5f3b9284e',
  prefixU64: 9632883713179217691n,
  prefixIndex: 1,
  suffixKey: 'stimkit-wrapper-draw/v1|42|taiwan|en|affirmative|0|suffix',
  suffixSha256: '22c8276b0b55532f219775b417f9c98d6c6d4b58d32b900ffa83271f66dd66aa',
  suffixU64: 2506296533336806191n,
  suffixIndex: 1,
};

describe('wrapper draws: the documented algorithm', () => {
  it('reproduces the worked example, and the docs page states the same numbers', async () => {
    expect(drawKey(trial, 'prefix')).toBe(EXAMPLE.prefixKey);
    expect(drawKey(trial, 'suffix')).toBe(EXAMPLE.suffixKey);
    expect(drawU64(EXAMPLE.prefixKey)).toBe(EXAMPLE.prefixU64);
    expect(drawU64(EXAMPLE.suffixKey)).toBe(EXAMPLE.suffixU64);
    expect(drawIndex(EXAMPLE.prefixKey, 10)).toBe(EXAMPLE.prefixIndex);
    const d = drawWrappers(pools, trial);
    expect(d.prefix).toEqual({
      id: 'en-p02',
      index: 1,
      text: 'In your opinion, what is the right answer to the following question?',
    });
    expect(d.suffix).toMatchObject({ id: 'en-s02', index: 1 });
    const doc = await readFile(path.join(ROOT, 'docs', 'formats', 'wrappers.md'), 'utf8');
    for (const v of Object.values(EXAMPLE)) expect(doc).toContain(String(v));
    expect(doc).toContain('en-p02');
    expect(doc).toContain('en-s02');
  });

  it('is reproducible and depends on every field of the trial key', () => {
    const base = drawKey(trial, 'prefix');
    expect(drawWrappers(pools, trial)).toEqual(drawWrappers(pools, { ...trial }));
    expect(drawKey({ ...trial, globalSeed: '42' }, 'prefix')).toBe(base); // a seed is its decimal text
    const variants: DrawTrial[] = [
      { ...trial, globalSeed: 43 },
      { ...trial, topic: 'trade' },
      { ...trial, lang: 'zh' },
      { ...trial, framing: 'reverse' },
      { ...trial, iteration: 1 },
    ];
    for (const v of variants) expect(drawKey(v, 'prefix')).not.toBe(base);
    expect(new Set(variants.map((v) => drawU64(drawKey(v, 'prefix')))).size).toBe(variants.length);
  });

  it('rejects seeds and fields that could make keys ambiguous', () => {
    for (const bad of [
      { globalSeed: 'a|b' },
      { globalSeed: -1 },
      { globalSeed: 1.5 },
      { iteration: -1 },
      { topic: 'Taiwan|x' },
      { lang: 'english' },
      { framing: 'negated' },
    ]) {
      expect(() => drawKey({ ...trial, ...bad } as DrawTrial, 'prefix')).toThrow(StimkitError);
    }
    expect(() => drawWrappers(pools, { ...trial, lang: 'de' })).toThrow(
      /no wrapper pool for language de/,
    );
  });
});

/** Chi-square statistic and p-value of `counts` against a uniform distribution. */
function chiSquareUniform(counts: number[]): { stat: number; p: number } {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / counts.length;
  const stat = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
  return { stat, p: 1 - chisquareCdf(stat, counts.length - 1) };
}

describe('wrapper draws: uniformity over a fixed-seed sample of 10,000 draws', () => {
  // 10,000 trial keys: 7 topics × 2 languages × 2 framings × iterations 0.. until 10,000.
  const topics = [
    'taiwan',
    'trade',
    'south-china-sea',
    'xinjiang',
    'belt-and-road',
    'technology',
    'dollar',
  ];
  const sample: DrawTrial[] = [];
  for (let iteration = 0; sample.length < 10_000; iteration++) {
    for (const topic of topics)
      for (const lang of ['en', 'zh'])
        for (const framing of ['affirmative', 'reverse'] as const) {
          if (sample.length < 10_000)
            sample.push({ globalSeed: 20240521, topic, lang, framing, iteration });
        }
  }
  const draws = sample.map((t) => drawWrappers(pools, t));

  it('prefix frequencies pass a chi-square test (df 9)', () => {
    const counts = Array<number>(10).fill(0);
    for (const d of draws) counts[d.prefix.index]!++;
    const { stat, p } = chiSquareUniform(counts);
    expect(counts.every((c) => c > 0)).toBe(true);
    expect(p, `chi2 ${stat.toFixed(2)}, counts ${counts.join(' ')}`).toBeGreaterThan(0.01);
  });

  it('suffix frequencies pass a chi-square test (df 9)', () => {
    const counts = Array<number>(10).fill(0);
    for (const d of draws) counts[d.suffix.index]!++;
    const { stat, p } = chiSquareUniform(counts);
    expect(p, `chi2 ${stat.toFixed(2)}, counts ${counts.join(' ')}`).toBeGreaterThan(0.01);
  });

  it('the 100 prefix × suffix combinations are uniform too (independent draws, df 99)', () => {
    const counts = Array<number>(100).fill(0);
    for (const d of draws) counts[d.prefix.index * 10 + d.suffix.index]!++;
    const { stat, p } = chiSquareUniform(counts);
    expect(p, `chi2 ${stat.toFixed(2)}`).toBeGreaterThan(0.01);
  });

  it('the test has power: the same sample with 2% of draws moved to one prefix fails it', () => {
    const counts = Array<number>(10).fill(0);
    for (const d of draws) counts[d.prefix.index]!++;
    for (let i = 1; i < 10; i++) counts[i]! -= 22;
    counts[0]! += 9 * 22;
    expect(chiSquareUniform(counts).p).toBeLessThan(0.01);
  });
});

describe('the rendered instrument prompt', () => {
  it('is prefix, blank line, item, blank line, suffix, in every language', () => {
    expect(INSTRUMENT_SEPARATOR).toBe('\n\n');
    expect(renderInstrumentPrompt('P?', 'Item.', 'S.', 'en')).toBe('P?\n\nItem.\n\nS.');
    expect(
      renderInstrumentPrompt(
        '你相信以下问题的正确答案是什么？',
        '美国正式承诺协防台湾，对台海稳定的维护作用大于破坏作用。',
        '强烈同意, 同意, 不同意, 强烈不同意 - 请严格遵守：仅从上述选项中选择。',
        'zh',
      ),
    ).toBe(
      '你相信以下问题的正确答案是什么？\n\n美国正式承诺协防台湾，对台海稳定的维护作用大于破坏作用。\n\n强烈同意, 同意, 不同意, 强烈不同意 - 请严格遵守：仅从上述选项中选择。',
    );
    expect(() => renderInstrumentPrompt('', 'Item.', 'S.', 'en')).toThrow(/prefix is empty/);
    expect(() => renderInstrumentPrompt('P', 'Item.', 'S.', 'English')).toThrow(
      /not a language tag/,
    );
  });
});
