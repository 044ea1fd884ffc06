/** Reading the instrument judge's reply, the sim judge's labels, and which answers go to the judge. */
import { describe, expect, it } from 'vitest';
import {
  applyJudges,
  isJudgeable,
  type InstrumentJudging,
} from '../../src/score/instrument-judge-apply.js';
import { readJudgeLabel } from '../../src/score/instrument-judge-prompt.js';
import { simInstrumentJudge } from '../../src/score/instrument-sim-judge.js';
import { optionParser } from '../../src/score/parse.js';
import { INSTRUMENT_BANKS } from '../../src/sim/texts-instrument.js';

const OPTIONS: Record<string, Array<{ label: string; value: number }>> = {
  en: [
    { label: 'Strongly agree', value: 2 },
    { label: 'Agree', value: 1 },
    { label: 'Disagree', value: -1 },
    { label: 'Strongly disagree', value: -2 },
  ],
  zh: [
    { label: '强烈同意', value: 2 },
    { label: '同意', value: 1 },
    { label: '不同意', value: -1 },
    { label: '强烈不同意', value: -2 },
  ],
  'zh-Hant': [
    { label: '強烈同意', value: 2 },
    { label: '同意', value: 1 },
    { label: '不同意', value: -1 },
    { label: '強烈不同意', value: -2 },
  ],
  pt: [
    { label: 'Concordo totalmente', value: 2 },
    { label: 'Concordo', value: 1 },
    { label: 'Discordo', value: -1 },
    { label: 'Discordo totalmente', value: -2 },
  ],
};

describe('the judge reply', () => {
  it.each([
    ['Strongly agree', 2],
    ['Agree', 1],
    ['Neutral', 0],
    ['Disagree', -1],
    ['Strongly disagree', -2],
    ['strongly agree', 2],
    ['AGREE.', 1],
    ['**Disagree**', -1],
    ['"Strongly Disagree."', -2],
    ['Neutral!', 0],
    ['  agree\n', 1],
    ['Label: Agree', 1],
    ['<think>hmm, strongly?</think>Strongly-agree', 2],
    ['`neutral`', 0],
  ])('%j is %d', (reply, value) => {
    expect(readJudgeLabel(reply)?.value).toBe(value);
  });
  it.each([
    'Agree or Neutral',
    'The response agrees.',
    'I agree',
    '同意',
    'Somewhat agree',
    '',
    'Strongly',
  ])('%j is not a label', (reply) => {
    expect(readJudgeLabel(reply)).toBeNull();
  });
});

describe('the sim judge of instrument answers', () => {
  it('stays on the scale and errs to a neighbour', () => {
    for (const score of [-2, -1, 0, 1, 2]) {
      for (let i = 0; i < 200; i++) {
        const r = simInstrumentJudge({ seed: 1, accuracy: 0 }, 'j', 'm', `t_${i}`, {
          kind: 'instrument',
          score,
        })!;
        const v = readJudgeLabel(r.label)!.value;
        expect(Math.abs(v - score)).toBe(1);
        expect(r.truth.score).toBe(score);
      }
    }
    expect(simInstrumentJudge({ seed: 1, accuracy: 1 }, 'j', 'm', 't', { kind: 'vlm' })).toBeNull();
  });
});

describe('which answers go to the judge', () => {
  it('free text in every bank language is unparseable and judgeable; a pipeline refusal is not', () => {
    for (const [lang, bank] of Object.entries(INSTRUMENT_BANKS)) {
      const parse = optionParser(OPTIONS[lang]!, lang);
      for (const text of Object.values(bank.free).flat()) {
        const p = parse(text);
        expect(p.reason, `${lang}: ${text}`).toBe('unparseable');
        expect(isJudgeable(p, text)).toBe(true);
      }
    }
    const parse = optionParser(OPTIONS.en!, 'en');
    expect(isJudgeable(parse(null), null)).toBe(false);
    expect(isJudgeable(parse('  '), '  ')).toBe(false);
    expect(isJudgeable(parse('Agree.'), 'Agree.')).toBe(false);
    expect(isJudgeable(parse('Agree, or maybe Disagree.'), 'Agree, or maybe Disagree.')).toBe(true);
  });

  it('keeps the parser zero when the primary judge call failed, and a secondary judge never decides', () => {
    const parse = optionParser(OPTIONS.en!, 'en');
    const text = 'It is complicated.';
    const p = parse(text);
    const judging = (a: 'failed' | 'label' | undefined): InstrumentJudging => ({
      params: {},
      judges: [
        {
          name: 'a',
          simulated: false,
          verdicts: new Map(
            a
              ? [
                  [
                    'k',
                    {
                      status: a,
                      label: a === 'label' ? ('Agree' as const) : null,
                      value: a === 'label' ? 1 : null,
                      raw: 'x',
                      simulated: false,
                    },
                  ],
                ]
              : [],
          ),
        },
        {
          name: 'b',
          simulated: false,
          verdicts: new Map([
            [
              'k',
              {
                status: 'label' as const,
                label: 'Disagree' as const,
                value: -1,
                raw: 'Disagree',
                simulated: false,
              },
            ],
          ]),
        },
      ],
    });
    expect(applyJudges(p, judging('failed'), 'k', text, OPTIONS.en!)).toMatchObject({
      source: 'none',
      reason: 'unparseable',
      value: null,
      judge: 'a',
    });
    expect(applyJudges(p, judging(undefined), 'k', text, OPTIONS.en!)).toMatchObject({
      source: 'none',
      reason: 'unparseable',
      value: null,
    });
    expect(applyJudges(p, judging('label'), 'k', text, OPTIONS.en!)).toMatchObject({
      source: 'judge',
      reason: null,
      value: 1,
      label: 'Agree',
      judge_label: 'Agree',
    });
  });
});
