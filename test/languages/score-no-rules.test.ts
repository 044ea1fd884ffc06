/**
 * `score` of an instrument trial in a language without instrument rules: label, score and stance
 * empty with the reason `no_rules_for_language` (never 0), and score.json's `not_computed` lists
 * the language with its columns and rows.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { loadScoreBundle, type ScoreBundle } from '../../src/score/bundle.js';
import { instrumentScorer } from '../../src/score/instrument.js';
import { withReasoning } from '../../src/score/reasoning-instrument.js';
import { countNotComputed, notComputed, type NotComputed } from '../../src/score/not-computed.js';
import { bundleTrials, instrumentBundle } from '../score/fixture.js';
import type { Trial } from '../../src/bundle/format.js';
import { tempDir } from '../helpers/tmp.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

let bundle: ScoreBundle;
let trial: Trial;

beforeAll(async () => {
  const dir = await tempDir('stimkit-norules-');
  const fx = await instrumentBundle(dir, { iterations: 1, ptIterations: 0 });
  bundle = await loadScoreBundle(fx.bundle);
  trial = (await bundleTrials(fx.bundle)).find((t) => t.lang === 'en')!;
});

const response = (text: string) =>
  ({ trial_id: 'x', model: 'm', response: text, simulated: false, outcome: 'answer' }) as never;
const model = { name: 'm', origin: null, vendor: null, simulated: false } as never;

describe('an instrument language without rules', () => {
  it('leaves label, score and stance empty with its reason, and score.json lists it', () => {
    // The same trial and options, as if its language were French (no shipped pack).
    bundle.options.set('fr', bundle.options.get('en')!);
    const score = instrumentScorer.prepare(bundle);
    const fr = score({
      trial: { ...trial, lang: 'fr' },
      response: response('Tout à fait d’accord'),
      model,
    });
    expect(fr).toMatchObject({ score: null, stance: null, reason: 'no_rules_for_language' });
    expect(fr.parse).toMatchObject({
      label: null,
      no_rules: { lang: 'fr', columns: ['label', 'score', 'stance'] },
    });
    const en = score({ trial, response: response('Agree'), model });
    expect(en.score).toBe(1);
    const m: NotComputed = new Map();
    for (const r of [fr, en, fr]) countNotComputed(m, r);
    expect(notComputed(m)).toEqual({
      not_computed: [
        {
          lang: 'fr',
          reason: 'no_rules_for_language',
          columns: ['label', 'score', 'stance'],
          rows: 2,
        },
      ],
    });
    expect(notComputed(new Map())).toEqual({});
  });
});

describe('the reasoning channel of a row read without rules', () => {
  it('leaves answer_refuses empty for the instrument’s and pressure’s reasons alike', () => {
    bundle.options.set('fr', bundle.options.get('en')!);
    const input = {
      trial: { ...trial, lang: 'fr' },
      response: response('Je ne peux pas répondre.'),
      model,
    };
    const record = instrumentScorer.prepare(bundle)(input);
    // The instrument's reason, and pressure's (its scorer names the language in the reason).
    for (const reason of ['no_rules_for_language', 'no_rules:fr', 'no_options:fr']) {
      const scored = withReasoning(bundle, () => ({ ...record, reason }))(input);
      expect(scored.parse.reasoning, reason).toMatchObject({ answer_refuses: null });
    }
  });
});
