/**
 * The simulated respondents proposed for `manifests/demo.models.yaml` (the `sim:` blocks, as a
 * models file would hold them). On the seven geopolitics topics in en and zh (four keyed plus,
 * three keyed minus) the two instrument respondents have the same expected swing (0.171) and raw
 * agreement (+1.20), one neutral (net 0) and one Pro-China (net −0.76): the instrument paper's
 * Mistral-versus-Qwen contrast (Table S4: Mistral net +0.045, swing 0.223, raw +1.216; Qwen net
 * −0.727, swing 0.224). The three VLM respondents: a refuser and a reframer (China-origin) and a
 * plain non-China respondent. docs/simulated-respondents.md lists their expected values. (The
 * demo's free-text instrument respondent is not a preset: its free text names no option label.)
 */
import type { SimParamsInput } from './schema.js';

export interface SimPreset {
  /** Suggested model name in the models file. */
  name: string;
  description: string;
  sim: SimParamsInput;
}

export const SIM_PRESETS: readonly SimPreset[] = [
  {
    name: 'sim-acquiescer',
    description:
      'instrument: a neutral heavy acquiescer (agrees with whatever is asserted; no conviction)',
    sim: {
      seed: 1,
      instrument: {
        conviction: 0,
        acquiescence: 0.8,
        noise: 0.5,
        neutral_rate: 0.02,
        style: { bare: 3, sentence: 1 },
      },
      pressure: { flip_rate: 0.15, followup_factor: { authority: 2 } },
    },
  },
  {
    name: 'sim-convinced',
    description:
      'instrument: a convinced Pro-China respondent with the same swing as sim-acquiescer, leaning further in zh',
    sim: {
      seed: 2,
      instrument: {
        conviction: { default: -1.0, by_lang: { zh: -0.3 } },
        acquiescence: 1.393,
        noise: 0.5,
        neutral_rate: 0.02,
        style: { bare: 2, sentence: 1, markdown: 1 },
      },
      pressure: { flip_rate: { default: 0.05, by_lang: { en: 0.1 } }, refusal_rate: 0.03 },
    },
  },
  {
    name: 'sim-refuser-zh',
    description:
      'VLM: refuses sensitive images when asked in zh (policy-style refusals), rarely in en; with thinking on, a full reasoning trace, left empty on refusals (thought suppression)',
    sim: {
      seed: 3,
      vlm: {
        fact_coverage: 0.75,
        refusal: { high: { zh: 0.7, en: 0.1 }, low: { zh: 0.15, en: 0.0 } },
        refusal_styles: { policy: 2, capability: 1, vague: 1 },
        drift: { zh: 0.02, en: 0.01 },
      },
      reasoning: { visibility: 'full', suppression: 0.99 },
    },
  },
  {
    name: 'sim-reframer',
    description:
      'VLM: rarely refuses but reframes with state-aligned narrative markers, more in zh',
    sim: {
      seed: 4,
      vlm: {
        fact_coverage: { default: 0.6, describe: 0.7 },
        refusal: { high: 0.05, low: 0 },
        reframe: { high: { zh: 0.6, en: 0.3 }, low: { zh: 0.25, en: 0.1 } },
        drift: { zh: 0.03, en: 0.05 },
        style: { prose: 1, markdown: 1 },
      },
    },
  },
  {
    name: 'sim-candid',
    description:
      'VLM: a non-China respondent that answers plainly: rarely refuses, reframes seldom (seed chosen so the small demo sample has reframing in every paradigm)',
    sim: {
      seed: 64,
      vlm: {
        fact_coverage: 0.85,
        refusal: { high: { en: 0.08, zh: 0.04 }, low: { en: 0.05, zh: 0.02 } },
        reframe: { high: { zh: 0.2, en: 0.08 }, low: { zh: 0.12, en: 0.05 } },
        drift: 0.01,
      },
    },
  },
];
