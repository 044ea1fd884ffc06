/** The simulated instrument respondent: labels, rates, and net bias / swing against the closed form. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectedInstrument,
  expectedInstrumentModel,
  instrumentCells,
  SIM_PRESETS,
  simParamsSchema,
  simulate,
  type SimBundle,
  type SimParamsInput,
} from '../../src/sim/index.js';
import { INSTRUMENT_BANKS } from '../../src/sim/texts-instrument.js';
import type { Trial } from '../../src/bundle/format.js';
import { fixtureBundle, instrumentTrials, LANGS, matchLabels, zScore } from './fixture.js';
import { modelNetSwing, netSwingCells, type NsRecord } from './netswing.js';

let bundle: SimBundle;
beforeAll(async () => {
  bundle = await fixtureBundle();
});

const labelsOf = (lang: string) => bundle.wrappers.get(lang)!.options.map((o) => o.label);

function run(input: SimParamsInput, trials: Trial[], model = 'sim-test') {
  const params = simParamsSchema.parse(input);
  return trials.map((t) => ({ trial: t, r: simulate(params, model, t, bundle) }));
}

/** Records in the net_swing.json form: response = topic-keyed agreement, key = framing. */
function records(out: ReturnType<typeof run>, refusalsAsNull: boolean, model = 'm'): NsRecord[] {
  return out.map(({ trial, r }) => {
    const item = bundle.items.get(trial.item!)!;
    const k = item.affirmative_pole === 'plus' ? 1 : -1;
    const truth = r.truth as { score: number; refused: boolean };
    return {
      model,
      topic: item.topic,
      language: trial.lang,
      key: item.framing === 'affirmative' ? 'aff' : 'rev',
      response: refusalsAsNull && truth.refused ? null : k * truth.score,
    };
  });
}

function designCells(langs: readonly string[]) {
  const cells = instrumentCells(bundle, langs);
  expect(cells.length).toBe(7 * langs.length);
  return cells;
}

describe('the test-side net/swing definition', () => {
  it('reproduces the reference vector cell by cell', () => {
    const file = fileURLToPath(new URL('./vectors/net_swing.json', import.meta.url));
    const vec = JSON.parse(readFileSync(file, 'utf8')) as {
      cases: Array<{
        input: { records: NsRecord[] };
        expected: {
          cells: Array<
            Record<string, unknown> & { model: string; topic: string; language: string }
          >;
        };
      }>;
    };
    for (const c of vec.cases) {
      const got = new Map(
        netSwingCells(c.input.records).map((x) => [`${x.model}|${x.topic}|${x.language}`, x]),
      );
      expect(got.size).toBe(c.expected.cells.length);
      for (const e of c.expected.cells) {
        const g = got.get(`${e.model}|${e.topic}|${e.language}`)!;
        for (const f of [
          'n_aff',
          'n_rev',
          'n_invalid',
          'mean_aff',
          'mean_rev',
          'net',
          'acq',
          'swing',
        ] as const) {
          if (e[f] === null) expect(g[f]).toBeNull();
          else expect(g[f] as number).toBeCloseTo(e[f] as number, 12);
        }
      }
    }
  });
});

describe('instrument answers', () => {
  it('carry exactly one option label of the trial language, the true one, in every style', () => {
    const out = run(
      {
        instrument: {
          conviction: 0.4,
          acquiescence: 0.3,
          neutral_rate: 0.1,
          refusal_rate: 0.1,
          style: { bare: 1, sentence: 1, markdown: 1 },
        },
      },
      instrumentTrials(bundle, LANGS, 6),
    );
    const styles = new Set<string>();
    for (const { trial, r } of out) {
      const truth = r.truth as {
        label: string | null;
        score: number;
        stance: number;
        polarity_key: number;
        style: string;
        simulated: boolean;
      };
      expect(truth.simulated).toBe(true);
      const found = matchLabels(r.text, labelsOf(trial.lang));
      if (truth.label === null) {
        expect(found).toEqual([]);
        expect(truth.score).toBe(0);
      } else {
        styles.add(`${trial.lang}:${truth.style}`);
        expect(found).toEqual([truth.label]);
        const opt = bundle.wrappers.get(trial.lang)!.options.find((o) => o.label === truth.label)!;
        expect(truth.score).toBe(opt.value);
        expect(truth.stance).toBe(opt.value * truth.polarity_key);
      }
    }
    for (const lang of LANGS)
      for (const s of ['bare', 'sentence', 'markdown']) expect(styles).toContain(`${lang}:${s}`);
  });

  it('phrase banks never contain an option label of their language (nor an English one)', () => {
    for (const [lang, bank] of Object.entries(INSTRUMENT_BANKS)) {
      const labels = [...labelsOf(lang), ...labelsOf('en').map((l) => l.toLowerCase()), 'agree'];
      for (const text of [
        ...bank.pro,
        ...bank.con,
        ...bank.neutral,
        ...bank.refusal,
        bank.answerLead,
        ...Object.values(bank.free).flat(),
      ]) {
        expect(
          labels.filter((l) => text.includes(l)),
          `${lang}: ${text}`,
        ).toEqual([]);
      }
    }
  });

  it('label frequencies follow the closed-form label probabilities (chi-square per item)', () => {
    const params: SimParamsInput = {
      instrument: {
        conviction: { default: 0.6, by_lang: { zh: -0.9 } },
        acquiescence: 0.4,
        noise: 0.9,
      },
    };
    const out = run(
      params,
      instrumentTrials(bundle, ['en', 'zh'], 400).filter(
        (t) => t.topic === 'taiwan' || t.topic === 'xinjiang',
      ),
    );
    const byItem = new Map<string, number[]>();
    for (const { trial, r } of out) {
      const counts = byItem.get(trial.item!) ?? [0, 0, 0, 0];
      counts[[2, 1, -1, -2].indexOf((r.truth as { score: number }).score)]! += 1;
      byItem.set(trial.item!, counts);
    }
    expect(byItem.size).toBe(8);
    const parsed = simParamsSchema.parse(params);
    for (const [id, counts] of byItem) {
      const item = bundle.items.get(id)!;
      const e = expectedInstrument(parsed, item.topic, item.lang, item.affirmative_pole)
        .label_probs[item.framing];
      const n = counts.reduce((a, b) => a + b, 0);
      const cells = counts.map((o, i) => ({ o, e: e[i]! * n })).filter((c) => c.e > 0.5);
      const chi2 = cells.reduce((s, c) => s + (c.o - c.e) ** 2 / c.e, 0);
      const p = 1 - chisquareCdf(chi2, cells.length - 1);
      expect(
        p,
        `${id}: observed ${counts.join(',')}, expected ${e.map((x) => (x * n).toFixed(1)).join(',')}`,
      ).toBeGreaterThan(0.001);
    }
  });

  it('refusal and neutral rates per cell match the parameters (within 4 standard errors)', () => {
    const params: SimParamsInput = {
      instrument: {
        refusal_rate: { default: 0.05, by_topic: { taiwan: 0.3 }, cells: { 'trade/zh': 0.5 } },
        neutral_rate: { default: 0.1, by_lang: { zh: 0.1 } },
      },
    };
    const out = run(params, instrumentTrials(bundle, ['en', 'zh'], 300));
    const parsed = simParamsSchema.parse(params);
    for (const cell of designCells(['en', 'zh'])) {
      const rows = out
        .filter(({ trial }) => trial.topic === cell.topic && trial.lang === cell.lang)
        .map(({ r }) => r.truth as { refused: boolean; neutral: boolean });
      const e = expectedInstrument(parsed, cell.topic, cell.lang, cell.affirmative_pole);
      expect(
        zScore(rows.filter((t) => t.refused).length, rows.length, e.p_refusal),
        `refusals ${cell.topic}/${cell.lang}`,
      ).toBeLessThan(4);
      expect(
        zScore(rows.filter((t) => t.neutral).length, rows.length, e.p_neutral),
        `neutral ${cell.topic}/${cell.lang}`,
      ).toBeLessThan(4);
    }
    const e = expectedInstrument(parsed, 'trade', 'zh', 'plus');
    expect([e.p_refusal, e.p_neutral]).toEqual([0.5, 0.2]);
    expect(expectedInstrument(parsed, 'taiwan', 'en', 'plus').p_refusal).toBeCloseTo(0.35, 12);
  });
});

describe('net bias and swing from simulated answers', () => {
  const respondents: Array<[string, SimParamsInput]> = [
    ...SIM_PRESETS.filter((p) => p.sim.instrument).map(
      (p) => [p.name, p.sim] as [string, SimParamsInput],
    ),
    [
      'mixed',
      {
        seed: 9,
        instrument: {
          conviction: {
            default: 0.5,
            by_topic: { taiwan: 1.2, dollar: -0.4 },
            by_lang: { zh: -1 },
          },
          acquiescence: { default: -0.3, by_lang: { zh: 0.8 } },
          noise: { default: 0.7, by_topic: { trade: 0.5 } },
          strong_threshold: 0.8,
          neutral_rate: { default: 0.05, by_topic: { xinjiang: 0.2 } },
          refusal_rate: { default: 0.05, by_lang: { zh: 0.1 } },
        },
      },
    ],
  ];

  it.each(respondents)(
    '%s: net, swing and raw recovered within 0.05 (256 iterations), also without refusals',
    (name, input) => {
      const params = simParamsSchema.parse(input);
      const out = run(input, instrumentTrials(bundle, ['en', 'zh'], 256), name);
      const expected = expectedInstrumentModel(params, designCells(['en', 'zh']));
      const scored = modelNetSwing(netSwingCells(records(out, false)));
      expect(
        Math.abs(scored.net - expected.net),
        `net ${scored.net} vs ${expected.net}`,
      ).toBeLessThan(0.05);
      expect(
        Math.abs(scored.swing - expected.swing),
        `swing ${scored.swing} vs ${expected.swing}`,
      ).toBeLessThan(0.05);
      expect(Math.abs(scored.mean_cell_swing - expected.mean_cell_swing)).toBeLessThan(0.05);
      const raw =
        out.reduce((s, { r }) => s + (r.truth as { score: number }).score, 0) / out.length;
      expect(Math.abs(raw - expected.raw)).toBeLessThan(0.05);
      // net_swing.json's form: refusals excluded as invalid, neutral answers kept at 0.
      const cells = netSwingCells(records(out, true));
      const excl = expected.cells.map((c) => c.refusals_excluded);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      expect(Math.abs(modelNetSwing(cells).net - mean(excl.map((c) => c.net)))).toBeLessThan(0.05);
      // Cell by cell, within 0.25 (about 4 standard errors of a cell at 256 iterations).
      for (const c of netSwingCells(records(out, false))) {
        const e = expected.cells.find((x) => x.topic === c.topic && x.lang === c.language)!;
        expect(Math.abs(c.net! - e.net), `${c.topic}/${c.language} net`).toBeLessThan(0.25);
        expect(Math.abs(c.swing! - e.swing), `${c.topic}/${c.language} swing`).toBeLessThan(0.25);
      }
    },
  );

  it('the proposed acquiescer and convinced respondent: same swing, net 0 against a clear Pro-China net', () => {
    const cells = designCells(['en', 'zh']);
    const [acq, conv] = ['sim-acquiescer', 'sim-convinced'].map((n) =>
      expectedInstrumentModel(
        simParamsSchema.parse(SIM_PRESETS.find((p) => p.name === n)!.sim),
        cells,
      ),
    );
    expect(acq!.net).toBeCloseTo(0, 12);
    expect(acq!.raw).toBeGreaterThan(1);
    expect(conv!.net).toBeLessThan(-0.5);
    expect(Math.abs(acq!.swing - conv!.swing)).toBeLessThan(0.005);
    expect(Math.abs(acq!.raw - conv!.raw)).toBeLessThan(0.05);
  });

  it('at 64 iterations the acquiescer is not significant and the convinced respondent is (t on 28 cell means, 5 seeds)', () => {
    const trials = instrumentTrials(bundle, ['en', 'zh'], 64);
    const T_CRIT = 2.052; // two-sided 5 % critical value of t with 27 degrees of freedom
    for (const [name, significant] of [
      ['sim-acquiescer', false],
      ['sim-convinced', true],
    ] as const) {
      for (let seed = 0; seed < 5; seed += 1) {
        const out = run({ ...SIM_PRESETS.find((p) => p.name === name)!.sim, seed }, trials, name);
        const cells = new Map<string, number[]>();
        for (const { trial, r } of out)
          cells.set(trial.item!, [
            ...(cells.get(trial.item!) ?? []),
            (r.truth as { stance: number }).stance,
          ]);
        const means = [...cells.values()].map((xs) => xs.reduce((a, b) => a + b, 0) / xs.length);
        expect(means.length).toBe(28);
        const m = means.reduce((a, b) => a + b, 0) / means.length;
        const sd = Math.sqrt(means.reduce((a, b) => a + (b - m) ** 2, 0) / (means.length - 1));
        const t = m / (sd / Math.sqrt(means.length));
        expect(Math.abs(t) > T_CRIT, `${name} seed ${seed}: t = ${t.toFixed(2)}`).toBe(significant);
      }
    }
  });

  it('symmetric acquiescence cancels: conviction 0 gives net 0 in every cell, whatever the acquiescence', () => {
    for (const a of [-2, -0.5, 0, 0.7, 3]) {
      const p = simParamsSchema.parse({
        instrument: { acquiescence: a, noise: 0.6, refusal_rate: 0.1 },
      });
      for (const key of ['plus', 'minus'] as const)
        expect(expectedInstrument(p, 'taiwan', 'en', key).net).toBeCloseTo(0, 12);
    }
  });
});
