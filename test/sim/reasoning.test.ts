/**
 * The simulated reasoning habit: the shown channel per habit, thought suppression on refusing or
 * evading answers recovered within its interval and recorded in the truth, and every answer the
 * same bytes as without a habit (the habit draws from its own stream).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Trial } from '../../src/bundle/format.js';
import {
  simParamsSchema,
  simulate,
  type SimBundle,
  type SimParamsInput,
} from '../../src/sim/index.js';
import type { ReasoningTruth } from '../../src/sim/reasoning.js';
import { fixtureBundle, vlmTrials, zScore } from './fixture.js';

let bundle: SimBundle;
beforeAll(async () => {
  bundle = await fixtureBundle();
});

const VLM: SimParamsInput = {
  seed: 7,
  vlm: { refusal: { high: { zh: 0.5, en: 0.1 } }, reframe: { high: 0.3 } },
};
const replies = (input: SimParamsInput, trials: Trial[]) => {
  const params = simParamsSchema.parse(input);
  return trials.map((t) => simulate(params, 'sim-r', t, bundle));
};
/** The truth of a reply's reasoning (undefined without a habit). */
const rt = (r: ReturnType<typeof replies>[number]) =>
  r.truth.reasoning as ReasoningTruth | undefined;

/** A reply without its reasoning: the text, finish, truth and prompt tokens. */
const answerOf = (r: ReturnType<typeof replies>[number]) => {
  const { reasoning: _r, ...truth } = r.truth;
  return { text: r.text, finish: r.finish_reason, truth, prompt: r.usage.prompt_tokens };
};

describe('the simulated reasoning habit', () => {
  it('without a habit: no reasoning, nothing added to the truth or the usage', () => {
    for (const r of replies(VLM, vlmTrials('square-1989', 'describe', 'zh', 'A0', 50))) {
      expect(r.reasoning).toBeUndefined();
      expect('reasoning' in r.truth).toBe(false);
      expect(Object.keys(r.usage)).toEqual(['prompt_tokens', 'completion_tokens', 'total_tokens']);
    }
  });

  it('suppresses the trace of refusing or evading answers at its rate, per language, and of no other', () => {
    const trials = [
      ...vlmTrials('square-1989', 'describe', 'zh', 'A0', 1000),
      ...vlmTrials('square-1989', 'describe', 'en', 'A0', 1000),
    ];
    const habit = { visibility: 'full', suppression: { zh: 0.9, en: 0.2 } } as const;
    const plain = replies(VLM, trials);
    const out = replies({ ...VLM, reasoning: habit }, trials);
    for (const lang of ['zh', 'en'] as const) {
      const eligible = out.filter((r, i) => trials[i]!.lang === lang && rt(r)?.eligible);
      const suppressed = eligible.filter((r) => rt(r)!.suppressed);
      expect(eligible.length).toBeGreaterThan(250);
      expect(zScore(suppressed.length, eligible.length, habit.suppression[lang])).toBeLessThan(4);
      for (const r of suppressed)
        expect(r.reasoning).toEqual({ text: '\n\n', visibility: 'empty', tokens: 1 });
    }
    out.forEach((r, i) => {
      const t = r.truth as { refused: boolean; reframed: boolean };
      expect(rt(r)!.eligible).toBe(t.refused || t.reframed);
      if (!rt(r)!.suppressed) {
        expect(r.reasoning!.visibility).toBe('full');
        expect(r.reasoning!.text!.trim()).not.toBe('');
      }
      // Reasoning tokens are output tokens, also reported apart.
      expect(r.usage.completion_tokens_details).toEqual({ reasoning_tokens: r.reasoning!.tokens });
      expect(r.usage.completion_tokens).toBe(
        plain[i]!.usage.completion_tokens + r.reasoning!.tokens!,
      );
      // The answer is the same bytes as without the habit.
      expect(answerOf(r)).toEqual(answerOf(plain[i]!));
    });
  });

  it('shows a summary, or withholds the text (tokens only), as its habit says', () => {
    const trials = vlmTrials('square-1989', 'describe', 'en', 'A0', 40);
    for (const r of replies({ ...VLM, reasoning: { visibility: 'summary' } }, trials))
      expect(r.reasoning).toMatchObject({
        visibility: 'summary',
        text: expect.stringContaining('**'),
      });
    for (const r of replies(
      { ...VLM, reasoning: { visibility: 'redacted', suppression: 1 } },
      trials,
    )) {
      const suppressed = rt(r)!.suppressed;
      expect(r.reasoning).toEqual(
        suppressed
          ? { text: null, visibility: 'absent', tokens: 0 }
          : { text: null, visibility: 'redacted', tokens: expect.any(Number) },
      );
    }
  });

  it('a trial with thinking off has no reasoning channel', () => {
    const trials = vlmTrials('square-1989', 'describe', 'en', 'A0', 5).map((t) => ({
      ...t,
      sampling: { ...t.sampling, thinking: false },
    }));
    for (const r of replies({ ...VLM, reasoning: { visibility: 'full' } }, trials))
      expect(r.reasoning).toBeUndefined();
  });
});
