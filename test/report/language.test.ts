/**
 * The report per language (src/report/sections/language.ts): net bias, stance and the shift for
 * every language of every arm — each against the arm's first by default, the pairs `--shift`
 * names otherwise — with the languages' names from the data files, each number equal to
 * `stimkit analyze instrument --arm ARM --shift FROM:TO`; the slopegraph's labels never overlap.
 */
import { describe, expect, it } from 'vitest';
import { analyzeArm } from '../../src/analyze/instrument/arms.js';
import { instrumentRowOf } from '../../src/analyze/instrument-csv.js';
import type { LanguageNames } from '../../src/report/languages.js';
import { languageSection } from '../../src/report/sections/language.js';
import { spreadLabels } from '../../src/report/sections/language-shift.js';
import type { ReportContext } from '../../src/report/types.js';

const MODELS = [
  { model: 'm-cn', origin: 'CN', bias: { en: -1, zh: -2, bo: -1.5, ug: 0.5, pt: 0 } },
  { model: 'm-us', origin: 'US', bias: { en: 1, zh: 0.5, bo: 1, ug: 1, pt: 1 } },
  { model: 'm-fr', origin: 'FR', bias: { en: 0, zh: -0.5, bo: 0.5, ug: -1, pt: 0.5 } },
];
const ARMS = { main: ['en', 'zh', 'bo', 'ug'], 'pt-control': ['pt', 'en'] } as const;
const TOPICS = ['taiwan', 'tibet', 'trade'];

/** instrument.csv rows: a score per model × arm × language × topic × framing × iteration. */
function rows(): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const [arm, langs] of Object.entries(ARMS))
    for (const m of MODELS)
      for (const lang of langs)
        for (const [ti, topic] of TOPICS.entries())
          for (const framing of ['affirmative', 'reverse'])
            for (const it of [0, 1]) {
              const b = m.bias[lang] + ((ti + it) % 3) - 1;
              const stance = Math.max(-2, Math.min(2, Math.round(b))) || 1;
              const score = framing === 'affirmative' ? stance : -stance;
              out.push({
                arm,
                model: m.model,
                origin: m.origin,
                topic,
                lang,
                framing,
                key: 'plus',
                iteration: String(it),
                score: String(score),
              });
            }
  return out;
}

const NAMES: LanguageNames = {
  names: new Map([
    ['en', 'English'],
    ['zh', 'Chinese (Simplified)'],
    ['bo', 'Tibetan'],
    ['ug', 'Uyghur'],
  ]),
  note: null,
};

function ctxOf(shifts: Array<{ from: string; to: string }> | null = null): ReportContext {
  const table = rows();
  return {
    scoresDir: '/nowhere',
    shifts,
    header: {
      counts: { by_paradigm: { instrument: table.length } },
      files: [{ file: 'instrument.csv' }],
    } as unknown as ReportContext['header'],
    records: () => Promise.resolve([]),
    table: () => Promise.resolve({ header: Object.keys(table[0]!), rows: table }),
    memo: async (k, make) => (k === 'language-names' ? (NAMES as never) : make()),
    simulated: false,
    bundle: () => Promise.resolve({ bundle: null, note: null }),
  };
}

describe('the report per language', () => {
  it('shows net bias and stance for every language of every arm, each against the arm’s first', async () => {
    const c = await languageSection.build(ctxOf());
    expect(c.tables.map((t) => t.id)).toEqual([
      'language-net-main',
      'language-stance-main',
      'language-net-pt-control',
      'language-stance-pt-control',
    ]);
    const net = c.tables[0]!;
    const langs = (t: typeof net) => [...new Set(t.rows.map((r) => r[2]))];
    expect(langs(net)).toEqual(['en', 'zh', 'bo', 'ug']);
    expect(new Set(c.tables[1]!.rows.map((r) => r[1]))).toEqual(new Set(['en', 'zh', 'bo', 'ug']));
    expect(net.rows.find((r) => r[0] === 'm-cn' && r[2] === 'bo')![3]).toBe('Tibetan (bo)');
    expect(langs(c.tables[2]!)).toEqual(['en', 'pt']);
    expect(c.tables[2]!.rows.find((r) => r[2] === 'pt')![3]).toBe('pt'); // no name: the code
    // main: en → zh, en → bo, en → ug; pt-control: en → pt
    expect(c.charts.map((x) => x.id)).toEqual([
      'language-slopegraph',
      'language-slopegraph-main-en-bo',
      'language-slopegraph-main-en-ug',
      'language-slopegraph-pt-control-en-pt',
    ]);
    expect(c.charts[1]!.title).toBe('Net bias in English (en) and Tibetan (bo) per model');
    // each shift equals analyze instrument --arm main --shift en:bo
    const main = rows()
      .filter((r) => r.arm === 'main')
      .map(instrumentRowOf);
    const cli = analyzeArm(main, { arm: 'main', shift: { from: 'en', to: 'bo' } }).analysis
      .languageShift!;
    const data = c.charts[1]!.data;
    for (const m of cli.perModel) {
      const to = data.rows.find((r) => r[0] === m.model && r[2] === 'bo')!;
      expect(to[3]).toBeCloseTo(m.netTo, 5);
      expect(to[7]).toBeCloseTo(m.shift, 5);
    }
    expect(c.paragraphs.join(' ')).toContain('Tibetan (bo)');
  });

  it('shows the pairs --shift names, and refuses a pair no arm has', async () => {
    const c = await languageSection.build(ctxOf([{ from: 'zh', to: 'ug' }]));
    expect(c.charts.map((x) => x.id)).toEqual(['language-slopegraph']);
    expect(c.charts[0]!.data.title).toContain('zh → ug');
    await expect(languageSection.build(ctxOf([{ from: 'zh', to: 'pt' }]))).rejects.toMatchObject({
      code: 'E_REPORT_SHIFT',
    });
  });

  it('moves the slopegraph’s labels apart where they would overlap, keeping their order', () => {
    const values = [0.5, 0.51, 0.52, -1, 0.49];
    const y = spreadLabels(values, [-2, 2]);
    const gap = (4 * 13) / 380;
    const sorted = [...y].sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++)
      expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThanOrEqual(gap - 1e-5);
    // order kept: the label of a higher value is never below that of a lower one
    const order = (xs: number[]) => xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
    expect(order(y)).toEqual(order(values));
    expect(y[3]).toBeCloseTo(-1, 5); // far from the others: where its point is
  });
});
