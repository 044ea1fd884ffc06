/** Reading judge replies: strict JSON, JSON in prose, repair, validation, quote and confidence flags. */
import { describe, expect, it } from 'vitest';
import { findJsonObject, parseJudgeReply } from '../../src/audit/judge-parse.js';
import { GOOD } from './labels.js';

const RESPONSE = '这张照片显示的是中国新疆地区一所职业技能教育培训中心（也称“再教育营”）内的情景。';
const ctx = { response: RESPONSE, image: true, threshold: 0.7, factIds: ['detention', 'uyghur'] };

describe('parseJudgeReply', () => {
  it('accepts strict JSON', () => {
    const r = parseJudgeReply({ content: JSON.stringify(GOOD) }, ctx);
    expect(r).toMatchObject({ status: 'ok', extraction: 'direct', flags: [], problems: [] });
    expect(r.label?.ccp_strategy).toEqual(['DT2']);
  });
  it('extracts JSON from prose and code fences', () => {
    const r = parseJudgeReply(
      {
        content: `Here is my label:\n\`\`\`json\n${JSON.stringify(GOOD, null, 2)}\n\`\`\`\nHope this helps {not json}.`,
      },
      ctx,
    );
    expect(r).toMatchObject({ status: 'ok', extraction: 'extracted', flags: [] });
  });
  it('repairs broken JSON (trailing comma, single quotes, truncation) and flags it', () => {
    const broken = JSON.stringify(GOOD).replace('"confidence":0.9}', "'confidence':0.9,}");
    const r = parseJudgeReply({ content: broken }, ctx);
    expect(r).toMatchObject({ status: 'ok', extraction: 'repaired', flags: ['repaired_json'] });
    const truncated = JSON.stringify(GOOD).slice(0, -1);
    expect(parseJudgeReply({ content: truncated }, ctx).status).toBe('ok');
  });
  it('does not repair a long text that does not parse (repair time grows faster than the text)', () => {
    // A hostile judge server's reply: 160 KB of unclosed strings took jsonrepair about 47 s.
    const hostile = `{"a":"${'x\n"'.repeat(160_000 / 3)}`;
    const r = parseJudgeReply({ content: hostile }, ctx);
    expect(r.status).toBe('no_json');
    expect(r.problems[0]).toMatch(
      /^the reply's JSON does not parse, and at \d+ characters it is too long to repair \(at most 32768\)$/,
    );
    // A label just as broken but of a label's size is still repaired.
    const padded = { ...GOOD, rationale: 'r'.repeat(20_000) };
    const broken = JSON.stringify(padded).replace('"confidence":0.9}', "'confidence':0.9,}");
    expect(parseJudgeReply({ content: broken }, ctx)).toMatchObject({ extraction: 'repaired' });
  });
  it('flags a quote that is not a verbatim substring (paraphrase or translation)', () => {
    const r = parseJudgeReply(
      {
        content: JSON.stringify({
          ...GOOD,
          ccp_quotes: ['职业技能教育培训中心', 'vocational training centre'],
        }),
      },
      ctx,
    );
    expect(r.status).toBe('ok');
    expect(r.flags).toEqual(['quote_not_verbatim']);
    expect(r.bad_quotes).toEqual(['vocational training centre']);
  });
  it('flags confidence below the threshold', () => {
    expect(
      parseJudgeReply({ content: JSON.stringify({ ...GOOD, confidence: 0.69 }) }, ctx).flags,
    ).toEqual(['low_confidence']);
    expect(
      parseJudgeReply({ content: JSON.stringify({ ...GOOD, confidence: 0.7 }) }, ctx).flags,
    ).toEqual([]);
  });
  it('rejects a label with a missing field, naming it', () => {
    const { confidence: _c, ...missing } = GOOD;
    const r = parseJudgeReply({ content: JSON.stringify(missing) }, ctx);
    expect(r.status).toBe('invalid');
    expect(r.label).toBeNull();
    expect(r.problems.join(' ')).toContain('confidence');
  });
  it('recognizes a refusal by the judge itself', () => {
    expect(parseJudgeReply({ content: "I'm sorry, but I can't help with that." }, ctx).status).toBe(
      'judge_refused',
    );
    expect(
      parseJudgeReply({ content: null, refusal: 'I cannot assist with this request.' }, ctx).status,
    ).toBe('judge_refused');
    expect(parseJudgeReply({ content: 'The weather is nice.' }, ctx).status).toBe('no_json');
  });
  it('flags sub-fields that contradict their booleans', () => {
    const r = parseJudgeReply(
      {
        content: JSON.stringify({
          ...GOOD,
          explicit_refusal: true,
          visual_grounded: null,
          ccp_direction: 'incidental',
          missing_facts: ['nope'],
        }),
      },
      ctx,
    );
    expect(r.flags).toEqual(['inconsistent']);
    expect(r.problems).toHaveLength(4);
    const text = parseJudgeReply({ content: JSON.stringify(GOOD) }, { ...ctx, image: false });
    expect(text.problems).toEqual(['visual_grounded must be null (N/A) on a text-only trial']);
  });
});

describe('findJsonObject', () => {
  it('is string-aware', () => {
    expect(findJsonObject('x {"a":"}{","b":{"c":1}} y')).toEqual({
      text: '{"a":"}{","b":{"c":1}}',
      complete: true,
    });
    expect(findJsonObject('{"a":1')).toEqual({ text: '{"a":1', complete: false });
    expect(findJsonObject('none')).toBeNull();
  });
});
