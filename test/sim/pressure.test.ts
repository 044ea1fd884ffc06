// The simulated pressure respondent: each turn's reply read by the instrument parser (an
// independent reading of the text) agrees with the truth, and the flip rates read from the text
// recover the true rates per model × topic × follow-up kind within their Wilson 99 % intervals.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Trial } from '../../src/bundle/format.js';
import { conversationId, trialId } from '../../src/bundle/trial-id.js';
import { packFor } from '../../src/languages/load.js';
import { keyingSign } from '../../src/score/instrument.js';
import { optionParser, type OptionParser } from '../../src/score/parse.js';
import {
  expectedPressure,
  simParamsSchema,
  simulate,
  type SimBundle,
  type SimParamsInput,
} from '../../src/sim/index.js';
import type { PressureTruth } from '../../src/sim/truth.js';
import { wilson } from '../../src/stats/wilson.js';
import { fixtureBundle, matchLabels } from './fixture.js';

const TOPICS = ['taiwan', 'trade'] as const;
const LANGS = ['en', 'zh'] as const;
const KINDS = ['are_you_sure', 'authority', 'other_language', 'switch_language'] as const;
const OTHER: Record<string, string> = { en: 'zh', zh: 'en' };
/** The follow-up files' canonical tags, as the planner writes text_lang. */
const TEXT_LANG: Record<string, string> = { en: 'en', zh: 'zh-Hans' };
const ITERATIONS = 60;

const MODELS: Record<string, SimParamsInput> = {
  // flip 0.15 on taiwan, 0.30 on trade; ×2 under authority, ×0.5 when asked for the other language
  'sim-yielding': {
    seed: 1,
    instrument: { conviction: 0.5, acquiescence: 0.3, noise: 0.8, refusal_rate: 0.04 },
    pressure: {
      flip_rate: { default: 0.15, by_topic: { trade: 0.15 } },
      followup_factor: { authority: 2, other_language: 0.5 },
      refusal_rate: 0.05,
    },
  },
  // flip 0.40 on taiwan, 0.10 on trade; ×1.5 under are_you_sure; texts in every style
  'sim-firm': {
    seed: 2,
    instrument: {
      conviction: -0.6,
      neutral_rate: 0.04,
      style: { bare: 1, sentence: 1, markdown: 1 },
    },
    pressure: {
      flip_rate: { default: 0.4, by_topic: { trade: -0.3 } },
      followup_factor: { are_you_sure: 1.5 },
    },
  },
};

let bundle: SimBundle;
let conversations: Trial[][];
beforeAll(async () => {
  const base = await fixtureBundle();
  conversations = pressureConversations(base);
  const trials = new Map(conversations.flat().map((t) => [t.id, t]));
  bundle = { ...base, trials, otherLanguage: new Map(Object.entries(OTHER)) };
});

/** Conversations of 1 + 4 turns from the items of TOPICS × LANGS, both framings, ITERATIONS each. */
function pressureConversations(b: SimBundle): Trial[][] {
  const out: Trial[][] = [];
  for (const item of b.items.values()) {
    if (!(TOPICS as readonly string[]).includes(item.topic)) continue;
    if (!(LANGS as readonly string[]).includes(item.lang)) continue;
    for (let iteration = 0; iteration < ITERATIONS; iteration++) {
      const key = {
        paradigm: 'pressure' as const,
        ...{ arm: 'main', lang: item.lang, entry: null, item: item.id, topic: item.topic },
        ...{ variant: null, framing: item.framing, iteration, seed: null },
      };
      const turns: Trial[] = [];
      for (let turn = 1; turn <= KINDS.length + 1; turn++) {
        const followup = turn === 1 ? null : KINDS[turn - 2]!;
        const text_lang =
          followup === 'switch_language' ? TEXT_LANG[OTHER[item.lang]!]! : TEXT_LANG[item.lang]!;
        const previous = turns.at(-1)?.id ?? null;
        const conversation = { id: conversationId(key), turn, previous, followup, text_lang };
        const t = {
          ...key,
          ...{ prompt: null, wrappers: null, models: null, images: [], conversation },
          messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'x' }] }],
          sampling: { temperature: 0, max_tokens: 1024 },
        };
        turns.push({ id: trialId(t), ...t });
      }
      out.push(turns);
    }
  }
  return out;
}

/** The spec's answer language of a turn, from the trial (never from the truth). */
function answerLang(t: Trial): string {
  const f = t.conversation!.followup;
  return f === 'other_language'
    ? OTHER[t.lang]!
    : f === 'switch_language'
      ? t.conversation!.text_lang
      : t.lang;
}

const canon = (tag: string) => packFor(tag)?.pack.tag ?? tag;
const parsers = new Map<string, { parse: OptionParser; labels: string[] }>();
/** The parser of a language's pool (the pool found through the language packs: zh-Hans → zh). */
function parserOf(lang: string) {
  const key = [...bundle.wrappers.keys()].find((k) => canon(k) === canon(lang))!;
  if (!parsers.has(key)) {
    const options = bundle.wrappers.get(key)!.options;
    parsers.set(key, { parse: optionParser(options, key), labels: options.map((o) => o.label) });
  }
  return parsers.get(key)!;
}

interface Turn {
  trial: Trial;
  text: string;
  refusal: boolean;
  truth: PressureTruth;
  /** The stance read from the text: the parsed option's value keyed with the item's sign. */
  stance: number | null;
  label: string | null;
}

/** One model's conversations turn by turn, as the run sends them: none after a refusal. */
function converse(name: string): Turn[][] {
  const params = simParamsSchema.parse(MODELS[name]);
  return conversations.map((turns) => {
    const out: Turn[] = [];
    for (const trial of turns) {
      const r = simulate(params, name, trial, bundle);
      const p = parserOf(answerLang(trial)).parse(r.text);
      const item = bundle.items.get(trial.item!)!;
      const sign = keyingSign(item.affirmative_pole, item.framing);
      const truth = r.truth as unknown as PressureTruth;
      const stance = p.value === null ? null : p.value * sign;
      out.push({ trial, text: r.text, refusal: r.refusal === true, truth, stance, label: p.label });
      if (r.refusal) break;
    }
    return out;
  });
}

let runs: Map<string, Turn[][]>;
beforeAll(() => {
  runs = new Map(Object.keys(MODELS).map((m) => [m, converse(m)]));
});

describe('the simulated pressure respondent', () => {
  it('writes every turn so that the parser reads the true choice', () => {
    let choices = 0;
    for (const convs of runs.values())
      for (const turns of convs)
        for (const t of turns) {
          expect([t.label, t.stance]).toEqual([t.truth.label, t.truth.stance]);
          if (t.stance !== null) choices++;
          expect(t.truth.kind).toBe('pressure');
          expect(t.truth.turn).toBe(t.trial.conversation!.turn);
        }
    expect(choices).toBeGreaterThan(4000);
  });

  it('flips at its true rate per model × topic × follow-up kind (Wilson 99 %)', () => {
    for (const [name, convs] of runs) {
      const params = simParamsSchema.parse(MODELS[name]);
      for (const topic of TOPICS) {
        const want = expectedPressure(params, topic, 'en', KINDS);
        const flips = KINDS.map(() => ({ x: 0, n: 0 }));
        let changedLast = { x: 0, n: 0 };
        for (const turns of convs.filter((c) => c[0]!.trial.topic === topic)) {
          for (let k = 1; k < turns.length; k++) {
            const [prev, cur] = [turns[k - 1]!.stance, turns[k]!.stance];
            expect(turns[k]!.truth.flip_rate).toBeCloseTo(want.turns[k - 1]!.flip_rate, 12);
            if (prev === null || cur === null) continue;
            flips[k - 1]!.n++;
            if (prev !== cur) flips[k - 1]!.x++;
            expect(turns[k]!.truth.flipped).toBe(prev !== cur);
          }
          const [first, last] = [turns[0]!.stance, turns[KINDS.length]?.stance ?? null];
          if (first !== null && last !== null)
            changedLast = { x: changedLast.x + (first !== last ? 1 : 0), n: changedLast.n + 1 };
        }
        KINDS.forEach((kind, i) => {
          const { x, n } = flips[i]!;
          const ci = wilson(x, n, 0.99);
          const rate = want.turns[i]!.flip_rate;
          expect(n, `${name} ${topic} ${kind}`).toBeGreaterThan(150);
          expect(
            [ci.lower <= rate, rate <= ci.upper],
            `${name} ${topic} ${kind}: ${x}/${n} vs ${rate}`,
          ).toEqual([true, true]);
        });
        const ci = wilson(changedLast.x, changedLast.n, 0.99);
        expect(ci.lower <= want.final_changed && want.final_changed <= ci.upper).toBe(true);
      }
    }
  });

  it('answers other_language and switch_language turns with the other language’s labels', () => {
    let seen = 0;
    for (const convs of runs.values())
      for (const turns of convs)
        for (const t of turns) {
          const f = t.trial.conversation!.followup;
          if ((f !== 'other_language' && f !== 'switch_language') || t.truth.label === null)
            continue;
          const other = OTHER[t.trial.lang]!;
          expect(t.truth.answer_lang).toBe(other);
          expect(t.truth.answer_lang_fallback).toBe(false);
          expect(matchLabels(t.text, parserOf(other).labels)).toContain(t.truth.label);
          expect(matchLabels(t.text, parserOf(t.trial.lang).labels)).toEqual([]);
          seen++;
        }
    expect(seen).toBeGreaterThan(1000);
  });

  it('refuses a follow-up in a structured way at its rate, and keeps a first abstention', () => {
    const yielding = runs.get('sim-yielding')!.flat();
    const later = yielding.filter((t) => t.trial.conversation!.turn > 1);
    const refused = later.filter((t) => t.refusal);
    expect(refused.every((t) => t.truth.abstention === 'structured' && t.stance === null)).toBe(
      true,
    );
    const ci = wilson(refused.length, later.length, 0.99);
    expect(ci.lower <= 0.05 && 0.05 <= ci.upper).toBe(true);
    expect(
      runs
        .get('sim-firm')!
        .flat()
        .some((t) => t.refusal),
    ).toBe(false);
    // An abstention at turn 1 (refusal or neutral text) is repeated, never turned into a choice.
    for (const convs of runs.values())
      for (const turns of convs.filter((c) => c[0]!.truth.abstention !== null))
        for (const t of turns.slice(1))
          if (!t.refusal)
            expect([t.truth.abstention, t.stance]).toEqual([turns[0]!.truth.abstention, null]);
  });

  it('is deterministic, and without a pressure block never flips', () => {
    const params = simParamsSchema.parse(MODELS['sim-firm']);
    const sample = conversations.slice(0, 8).flat();
    const once = sample.map((t) => JSON.stringify(simulate(params, 'sim-firm', t, bundle)));
    const copy = { ...bundle, trials: new Map(bundle.trials) };
    const twice = [...sample]
      .reverse()
      .map((t) => JSON.stringify(simulate(params, 'sim-firm', t, copy)));
    expect(twice.reverse()).toEqual(once);
    const still = simParamsSchema.parse({ ...MODELS['sim-firm'], pressure: undefined });
    for (const t of conversations.slice(0, 40).flat()) {
      const truth = simulate(still, 'sim-firm', t, bundle).truth as unknown as PressureTruth;
      if (truth.turn === 1) continue;
      expect([truth.flip_rate, truth.refusal_rate]).toEqual([0, 0]);
      expect(truth.flipped === true || truth.abstention === 'structured').toBe(false);
      expect(truth.stance).toBe(truth.first_stance);
    }
  });

  it('falls back to the conversation’s labels without a pool, and names a missing turn or language', () => {
    const params = simParamsSchema.parse(MODELS['sim-firm']);
    const en = conversations.find((c) => c[0]!.lang === 'en')!;
    const ask = en.find((t) => t.conversation!.followup === 'other_language')!;
    const wrappers = new Map([...bundle.wrappers].filter(([k]) => k !== 'zh'));
    const r = simulate(params, 'sim-firm', ask, { ...bundle, wrappers });
    const truth = r.truth as unknown as PressureTruth;
    expect([truth.answer_lang, truth.answer_lang_fallback]).toEqual(['en', true]);
    expect(matchLabels(r.text, parserOf('en').labels)).toEqual([truth.label]);
    // Without the earlier turns, or without the study's other language: E_SIM_TRIAL.
    const noTrials = { ...bundle, trials: new Map([[ask.id, ask]]) };
    expect(() => simulate(params, 'sim-firm', ask, noTrials)).toThrow(
      /E_SIM_TRIAL|not in the bundle/,
    );
    const noOther = { ...bundle, otherLanguage: new Map<string, string>() };
    expect(() => simulate(params, 'sim-firm', ask, noOther)).toThrow(
      /pressure\.other_language\.en/,
    );
  });
});
