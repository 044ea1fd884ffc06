import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseDataText, zodProblems } from '../../src/core/datafile.js';
import { LangCode } from '../../src/ingest/schema.js';

/** The problems of `text` against `schema`, as `stimkit check` reports them. */
function problemsOf(schema: z.ZodType, text: string) {
  const parsed = parseDataText('t.yaml', text, 'E_T');
  const r = schema.safeParse(parsed.value);
  if (r.success) throw new Error('expected the schema to refuse the text');
  return zodProblems(parsed, r.error, 'E_T', schema);
}

const Topics = z.strictObject({
  languages: z.record(LangCode, z.strictObject({ notes: z.string() })),
  nested: z
    .strictObject({ title: z.string(), inner: z.strictObject({ a: z.number() }) })
    .optional(),
});

describe('data-file problems', () => {
  it('a key its record refuses is named on its own line, with the spelling it was probably meant as', () => {
    const text =
      'languages:\n  en:\n    notes: a\n  kk_KZ:\n    notes: b\n  zh_hant:\n    notes: c\n';
    const ps = problemsOf(Topics, text);
    expect(ps.map((p) => [p.field, p.line])).toEqual([
      ['languages.kk_KZ', 4],
      ['languages.zh_hant', 6],
    ]);
    expect(ps[0]).toMatchObject({
      message: 'key "kk_KZ" is not allowed here',
      expected: 'a language tag such as en, zh, pt or zh-Hant',
      got: '"kk_KZ"',
      fix: 'rename the key "kk_KZ" to "kk-KZ" (did you mean kk-KZ?)',
    });
    expect(ps[1]!.fix).toBe('rename the key "zh_hant" to "zh-Hant" (did you mean zh-Hant?)');
  });
  it('a key no spelling rescues is named with what the record expects', () => {
    const [p] = problemsOf(Topics, 'languages:\n  "1x":\n    notes: a\n');
    expect(p).toMatchObject({ field: 'languages.1x', line: 2 });
    expect(p!.fix).toBe(
      'rename the key "1x" (expected a language tag such as en, zh, pt or zh-Hant)',
    );
  });
  it('an unknown field whose value is a mapping is named on the line of its key', () => {
    const text = 'languages: {}\nnested:\n  title: t\n  inner:\n    a: 1\n  innr:\n    a: 2\n';
    const [p] = problemsOf(Topics, text);
    expect(p).toMatchObject({ field: 'nested', line: 6 });
    expect(p!.fix).toContain('did you mean inner?');
  });
});

describe('data-file problems: enum keys', () => {
  it('an enum-keyed record names the key it probably meant', () => {
    const Codes = z.strictObject({
      codes: z.partialRecord(z.enum(['A0', 'A1', 'A2']), z.number()),
    });
    const [p] = problemsOf(Codes, 'codes:\n  A0: 1\n  a1: 2\n');
    expect(p).toMatchObject({ field: 'codes', line: 3 });
    expect(p!.fix).toContain('rename "a1" to "A1"');
  });
});

describe('data-file problems: patterns', () => {
  it('a string a pattern refuses gets the spelling the pattern accepts (mn_Mong → mn-Mong)', () => {
    const Pack = z.strictObject({
      tag: z.string().regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, 'a BCP 47 language tag'),
    });
    const [p] = problemsOf(Pack, 'tag: mn_Mong\n');
    expect(p).toMatchObject({ field: 'tag', line: 1, message: 'a BCP 47 language tag' });
    expect(p!.fix).toBe('write "mn-Mong" (did you mean mn-Mong?)');
    expect(problemsOf(Pack, 'tag: "1"\n')[0]!.fix).toBe('correct tag');
  });
});
