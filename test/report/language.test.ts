/**
 * The report per language (src/report/sections/language.ts): net bias, stance and the shift for
 * every language of every arm — each against the arm's first by default, the pairs `--shift`
 * names otherwise — with the languages' names from their packs (a bundle's own pack first; the
 * own name marked with its lang and dir), each number equal to
 * `stimkit analyze instrument --arm ARM --shift FROM:TO`; the slopegraph's labels never overlap.
 */
import { describe, expect, it } from 'vitest';
import { analyzeArm } from '../../src/analyze/instrument/arms.js';
import { instrumentRowOf } from '../../src/analyze/instrument-csv.js';
import { languageLabel, unnamedNote, type LanguageNames } from '../../src/report/languages.js';
import { packFor } from '../../src/languages/load.js';
import { languageSection } from '../../src/report/sections/language.js';
import { tableHtml } from '../../src/report/html.js';
import { overviewSection } from '../../src/report/sections/overview.js';
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

/** The shipped packs, and the bundle's own Tibetan pack with other names. */
const NAMES: LanguageNames = {
  packs: [
    {
      pack: { ...packFor('bo')!.pack, names: { own: 'བོད་ཡིག', en: 'Standard Tibetan' } },
      ref: 'data/languages/bo.yaml',
      sha256: '',
    },
  ],
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
    expect(net.columns.slice(2, 5)).toEqual(['lang', 'language', 'language_own']);
    const row = (l: string) => net.rows.findIndex((r) => r[0] === 'm-cn' && r[2] === l);
    // the bundle's own pack names bo; the shipped ones the others
    expect(net.rows[row('bo')]!.slice(3, 5)).toEqual(['Standard Tibetan (bo)', 'བོད་ཡིག']);
    expect(net.rows[row('ug')]!.slice(3, 5)).toEqual(['Uyghur (ug)', 'ئۇيغۇرچە']);
    expect(net.cellLang!.language_own![row('ug')]).toEqual({ lang: 'ug', dir: 'rtl' });
    expect(net.cellLang!.language_own![row('zh')]).toEqual({ lang: 'zh', dir: 'ltr' });
    const page = String(tableHtml(net, false).html);
    expect(page).toContain('<td class="t" lang="ug" dir="rtl">ئۇيغۇرچە</td>');
    expect(page).toContain('<td class="t" lang="bo" dir="ltr">བོད་ཡིག</td>');
    expect(c.tables[1]!.columns.slice(1, 4)).toEqual(['lang', 'language', 'language_own']);
    expect(langs(c.tables[2]!)).toEqual(['en', 'pt']);
    expect(c.tables[2]!.rows.find((r) => r[2] === 'pt')![3]).toBe('Portuguese (pt)');
    // a language no pack names: its code, and one sentence saying so
    expect(languageLabel(NAMES, 'fr')).toBe('fr');
    expect(unnamedNote(NAMES, ['en', 'fr', 'fr'])).toMatch(/^No language pack names fr:/);
    expect(unnamedNote(NAMES, ['en'])).toBeNull();
    // main: en → zh, en → bo, en → ug; pt-control: en → pt
    expect(c.charts.map((x) => x.id)).toEqual([
      'language-slopegraph',
      'language-slopegraph-main-en-bo',
      'language-slopegraph-main-en-ug',
      'language-slopegraph-pt-control-en-pt',
    ]);
    expect(c.charts[1]!.title).toBe('Net bias in English (en) and Standard Tibetan (bo) per model');
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
    expect(c.paragraphs.join(' ')).toContain('Standard Tibetan (bo)');
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

describe('columns not computed for a language', () => {
  it('the overview names the language, its columns and rows', async () => {
    const ctx = ctxOf();
    ctx.header = {
      counts: {
        records: 3,
        by_paradigm: { instrument: 3 },
        unscored: {},
        models: [],
        not_computed: [
          { lang: 'fr', reason: 'no_rules_for_language', columns: ['label', 'score'], rows: 2 },
          { lang: 'ug', reason: 'no_rules_for_language', columns: ['d5_share'], rows: 1 },
        ],
      },
    } as unknown as ReportContext['header'];
    const c = await overviewSection.build(ctx);
    expect(c.paragraphs).toContain(
      'Not computed for fr: label, score are empty in its 2 rows (no_rules_for_language: no language pack gives the rules they need; docs/formats/languages.md).',
    );
    expect(c.paragraphs.join(' ')).toContain(
      'Not computed for Uyghur (ug): d5_share is empty in its 1 row ',
    );
  });
});
