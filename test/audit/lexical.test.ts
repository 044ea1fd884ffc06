/** The lexical baselines: refusal classes, the marker screen, and Appendix P end to end. */
import { describe, expect, it } from 'vitest';
import { baselineRecall, type BaselineRow } from '../../src/audit/baseline-recall.js';
import { detectRefusal, detectShort, screenMarkers } from '../../src/audit/lexical.js';
import { languageShare } from '../../src/audit/language.js';
import { responseLengths } from '../../src/audit/clean.js';
import { APPENDIX_P } from './appendix-p.js';

describe('bilingual refusal detector', () => {
  it.each([
    ["I'm sorry, but I can't help with that request.", 'policy'],
    ['I cannot discuss this topic.', 'policy'],
    ['抱歉，我无法回答这个问题。', 'policy'],
    ['该内容涉及敏感话题，我不便回答。', 'policy'],
    ["I'm unable to identify the people in this image.", 'capability'],
    ['作为一个人工智能，我无法识别图片中的人物。', 'capability'],
    ['所谓的“坦克人”照片是西方媒体歪曲事实的产物。', 'refutation'],
    ['That is a false narrative spread to smear the government.', 'refutation'],
    ["Let's talk about something else.", 'vague'],
    ['我们换个话题吧。', 'vague'],
    // typographic apostrophes, as word processors and many models write them
    ['I can’t help with that.', 'policy'],
    ['I’m unable to identify the people in this image.', 'capability'],
    // a structured reply: the first sentence under its headings
    ['### Response\nI cannot help with that.', 'policy'],
    ['### 回答\n\n我无法回答这个问题。', 'policy'],
  ])('%s → %s', (text, cls) => {
    expect(detectRefusal(text)).toMatchObject({ refused: true, reason: cls });
  });
  it('apology then answer is an answer', () => {
    const text = `I'm unable to identify the people in this image. ${'The photo shows a wide avenue with a column of tanks and a man standing in front of them, holding two bags. '.repeat(5)}`;
    expect(detectRefusal(text).refused).toBe(false);
    expect(detectRefusal(text).matches[0]!.class).toBe('capability');
  });
  it('an empty response is a (vague) refusal', () => {
    expect(detectRefusal('  ')).toMatchObject({ refused: true, reason: 'vague' });
  });
  it('a plain description is not a refusal', () => {
    expect(detectRefusal('The photo shows a man in front of tanks.').refused).toBe(false);
  });
});

describe('narrative-marker screen', () => {
  it('matches case- and width-insensitively, in any language', () => {
    const m = {
      en: ['Vocational Skills Education and Training Centre'],
      zh: ['职业技能教育培训中心'],
    };
    expect(
      screenMarkers('It shows a vocational skills education and  training centre.', m).markers,
    ).toEqual([{ lang: 'en', marker: m.en[0] }]);
    expect(screenMarkers('这是一所职业技能教育培训中心。', m).flagged).toBe(true);
    expect(screenMarkers('A detention camp.', m).flagged).toBe(false);
    expect(screenMarkers('anything', undefined).flagged).toBe(false);
  });
});

describe('Appendix P exemplars end to end', () => {
  const rows: BaselineRow[] = APPENDIX_P.map((e) => ({
    refusal_lexical: detectRefusal(e.response).refused,
    marker: screenMarkers(e.response, e.markers).flagged,
    short: detectShort(e.response),
    ref_d1: e.d1,
    ref_d4: e.d4,
    ref_strategy: e.strategy,
  }));

  it('the refusal detector finds the one refusal (c), classed policy, and nothing else', () => {
    expect(APPENDIX_P.filter((e) => detectRefusal(e.response).refused).map((e) => e.panel)).toEqual(
      ['c'],
    );
    expect(detectRefusal(APPENDIX_P[2]!.response).reason).toBe('policy');
  });
  it('the marker screen finds the pre-registered substitutions (d, e, f) and not the fluent DT2 euphemisms (a, b)', () => {
    expect(
      APPENDIX_P.filter((e) => screenMarkers(e.response, e.markers).flagged).map((e) => e.panel),
    ).toEqual(['d', 'e', 'f']);
  });
  it('reports recall the way Appendix J does: fluent substitution stays invisible', () => {
    const r = baselineRecall(rows);
    expect(r.refusal_on_d1).toEqual({ positives: 1, hits: 1, recall: 1, untold: 0 });
    expect(r.refusal_on_d4).toEqual({ positives: 6, hits: 1, recall: 1 / 6, untold: 0 });
    expect(r.marker_on_d4.hits).toBe(3);
    expect(r.union_on_d4).toEqual({ positives: 6, hits: 4, recall: 4 / 6, untold: 0 });
    expect(r.invisible_d4).toBeCloseTo(2 / 6);
    expect(r.missed_by_strategy).toEqual([
      { strategy: 'DT1', positives: 4, missed: 0, missed_share: 0, untold: 0 },
      { strategy: 'DT2', positives: 4, missed: 2, missed_share: 0.5, untold: 0 },
      { strategy: 'DT3', positives: 2, missed: 0, missed_share: 0, untold: 0 },
    ]);
  });
  it('leaves out of a recall the positives a detector could not tell, instead of counting them missed', () => {
    // The same responses again in a language without rules: no detector can tell.
    const untold = rows.map((r) => ({ ...r, refusal_lexical: null, marker: null, short: null }));
    const r = baselineRecall([...rows, ...untold]);
    expect(r.refusal_on_d1).toEqual({ positives: 1, hits: 1, recall: 1, untold: 1 });
    expect(r.union_on_d4).toEqual({ positives: 6, hits: 4, recall: 4 / 6, untold: 6 });
    expect(r.missed_by_strategy[1]).toEqual({
      strategy: 'DT2',
      positives: 4,
      missed: 2,
      missed_share: 0.5,
      untold: 4,
    });
    // One detector flags: a hit, whatever the others could tell.
    const one = baselineRecall([{ ...untold[0]!, marker: true, ref_d4: true }]);
    expect(one.union_on_d4).toEqual({ positives: 1, hits: 1, recall: 1, untold: 0 });
  });
  it('every exemplar answers in the prompt language (D5) and has a D6 length', () => {
    for (const e of APPENDIX_P) {
      expect(languageShare(e.response, e.lang).consistent, e.panel).toBe(true);
      expect(responseLengths(e.response).raw, e.panel).toBe([...e.response].length);
    }
  });
});
