// Topics files: every invalid input rejected with its code, file, line, field, expected and got;
// explicit pairs accepted only when they differ by the swap; extending files add languages only.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandPairs } from '../../src/stimuli/pairs.js';
import { loadTopics } from '../../src/stimuli/topics.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { baseTopics, only, rejection, writeLines } from './helpers.js';

const dir = await tempDir('stimkit-topics-');
let n = 0;
/** Write a topics file from the base lines with `edit` applied. */
async function topicsFile(
  edit: (lines: string[]) => string[] = (l) => l,
  name = `t${n++}.topics.yaml`,
): Promise<string> {
  return writeLines(dir, name, edit(baseTopics()));
}
const replaceLine = (no: number, text: string) => (l: string[]) =>
  l.map((x, i) => (i === no - 1 ? text : x));

describe('topics: valid files', () => {
  it('the base fixture loads and expands to 4 items with keys', async () => {
    const t = await loadTopics(await topicsFile());
    const items = expandPairs(t);
    expect(items.map((i) => [i.id, i.text, i.polarity_key])).toEqual([
      ['one.en.affirmative', 'It does more to help than to harm.', 1],
      ['one.en.reverse', 'It does more to harm than to help.', -1],
      ['one.zh.affirmative', '帮助大于伤害。', 1],
      ['one.zh.reverse', '伤害大于帮助。', -1],
    ]);
    expect(expandPairs(t, ['zh']).map((i) => i.id)).toEqual([
      'one.zh.affirmative',
      'one.zh.reverse',
    ]);
  });

  it('a minus-keyed topic flips the sign of both framings', async () => {
    const t = await loadTopics(await topicsFile(replaceLine(11, '    key: B')));
    expect(expandPairs(t).map((i) => [i.framing, i.polarity_key, i.agree_pole])).toEqual([
      ['affirmative', -1, 'minus'],
      ['reverse', 1, 'plus'],
      ['affirmative', -1, 'minus'],
      ['reverse', 1, 'plus'],
    ]);
  });

  it('accepts explicit pairs that differ only by the swap, with or without named outcomes', async () => {
    const file = await topicsFile((l) => [
      ...l.slice(0, 12),
      '      en:',
      '        affirmative: It does more to help than to harm.',
      '        reverse: It does more to harm than to help.',
      '        outcome_a: help',
      '        outcome_b: harm',
      '      zh:',
      '        affirmative: 帮助大于伤害。',
      '        reverse: 伤害大于帮助。',
    ]);
    const items = expandPairs(await loadTopics(file));
    expect(items.map((i) => [i.text, i.form, i.outcome_first])).toEqual([
      ['It does more to help than to harm.', 'explicit', 'a'],
      ['It does more to harm than to help.', 'explicit', 'b'],
      ['帮助大于伤害。', 'explicit', 'a'],
      ['伤害大于帮助。', 'explicit', 'b'],
    ]);
    expect(items[2]!.outcomes).toEqual({ a: '帮助', b: '伤害' });
  });
});

describe('topics: every invalid input is rejected with its code', () => {
  it('a topic missing a language (E_TOPICS_MISSING_LANGUAGE)', async () => {
    const file = await topicsFile((l) => l.slice(0, 16));
    const { error, problems } = await rejection(loadTopics(file));
    expect(error.exitCode).toBe(1);
    expect(only(problems, 'E_TOPICS_MISSING_LANGUAGE')).toMatchObject({
      file,
      line: 13,
      field: 'topics[0].items',
      entry: 'one',
      expected: 'items for en, zh',
      got: 'en',
      fix: 'add items.zh',
    });
  });

  it('an item in an undeclared language (E_TOPICS_UNDECLARED_LANGUAGE)', async () => {
    const file = await topicsFile((l) => [
      ...l,
      '      pt:',
      '        template: "{outcome_a} > {outcome_b}"',
      '        outcome_a: a',
      '        outcome_b: b',
    ]);
    const { problems } = await rejection(loadTopics(file));
    expect(only(problems, 'E_TOPICS_UNDECLARED_LANGUAGE')).toMatchObject({
      line: 22,
      field: 'topics[0].items.pt',
      got: 'pt',
    });
  });

  it('a template without both outcome slots (E_TOPICS_TEMPLATE_SLOTS)', async () => {
    const file = await topicsFile(
      replaceLine(14, '        template: "It does more to {outcome_a} than to harm."'),
    );
    const { problems } = await rejection(loadTopics(file));
    expect(only(problems, 'E_TOPICS_TEMPLATE_SLOTS')).toMatchObject({
      file,
      line: 14,
      field: 'topics[0].items.en.template',
      expected: '{outcome_a} once and {outcome_b} once',
      got: '{outcome_a}',
    });
  });

  it('a template with an outcome slot twice, an unknown slot, or a stray brace', async () => {
    const twice = await topicsFile(
      replaceLine(14, '        template: "{outcome_a} and {outcome_a} over {outcome_b}"'),
    );
    expect(only((await rejection(loadTopics(twice))).problems, 'E_TOPICS_TEMPLATE_SLOTS').got).toBe(
      '{outcome_a}, {outcome_a}, {outcome_b}',
    );
    const unknown = await topicsFile(
      replaceLine(14, '        template: "{outcome_a} over {outcome_b} for {sbject}"'),
    );
    expect(
      only((await rejection(loadTopics(unknown))).problems, 'E_TOPICS_TEMPLATE_SLOTS'),
    ).toMatchObject({ message: 'unknown slot {sbject}', line: 14 });
    const brace = await topicsFile(
      replaceLine(14, '        template: "{outcome_a} over {outcome_b"'),
    );
    expect(
      only((await rejection(loadTopics(brace))).problems, 'E_TOPICS_TEMPLATE_SYNTAX').message,
    ).toContain('character 18');
  });

  it('{subject} without a subject, and a subject without {subject}', async () => {
    const noSubject = await topicsFile(
      replaceLine(
        14,
        '        template: "{subject} does more to {outcome_a} than to {outcome_b}."',
      ),
    );
    expect(
      only((await rejection(loadTopics(noSubject))).problems, 'E_TOPICS_TEMPLATE_SLOTS').message,
    ).toContain('uses {subject}');
    const unused = await topicsFile((l) => [
      ...l.slice(0, 13),
      '        subject: It',
      ...l.slice(13),
    ]);
    expect(
      only((await rejection(loadTopics(unused))).problems, 'E_TOPICS_TEMPLATE_SLOTS'),
    ).toMatchObject({ field: 'topics[0].items.en.subject', line: 14 });
  });

  it('identical outcomes (E_TOPICS_IDENTICAL_OUTCOMES)', async () => {
    const file = await topicsFile(replaceLine(16, '        outcome_b: help'));
    expect(
      only((await rejection(loadTopics(file))).problems, 'E_TOPICS_IDENTICAL_OUTCOMES'),
    ).toMatchObject({ line: 16 });
  });

  it('multi-part outcomes with different parts (E_TOPICS_OUTCOME_PARTS)', async () => {
    const file = await topicsFile((l) => [
      ...l.slice(0, 13),
      '        template: "It {outcome_a.verb} more {outcome_a.object} than it {outcome_b.verb} {outcome_b.object}."',
      '        outcome_a: {verb: helps, object: people}',
      '        outcome_b: {verb: harms, thing: people}',
      ...l.slice(16),
    ]);
    expect(
      only((await rejection(loadTopics(file))).problems, 'E_TOPICS_OUTCOME_PARTS'),
    ).toMatchObject({ line: 16, expected: 'object, verb', got: 'thing, verb' });
  });

  it('an explicit pair that differs by more than the swap (E_TOPICS_NOT_SWAP)', async () => {
    const pair = (reverse: string, named: boolean) =>
      topicsFile((l) => [
        ...l.slice(0, 12),
        '      en:',
        '        affirmative: It does more to help than to harm.',
        `        reverse: ${reverse}`,
        ...(named ? ['        outcome_a: help', '        outcome_b: harm'] : []),
        ...l.slice(16),
      ]);
    const named = await pair('It does much more to harm than to help.', true);
    const p = only((await rejection(loadTopics(named))).problems, 'E_TOPICS_NOT_SWAP');
    expect(p).toMatchObject({
      line: 15,
      field: 'topics[0].items.en.reverse',
      expected: 'It does more to harm than to help.',
      got: 'It does much more to harm than to help.',
    });
    expect(p.message).toContain('first difference at character 10');
    const inferred = await pair('It does more to harm than to assist.', false);
    expect(
      only((await rejection(loadTopics(inferred))).problems, 'E_TOPICS_NOT_SWAP').message,
    ).toContain('not the affirmative with two terms exchanged');
    const same = await pair('It does more to help than to harm.', false);
    expect(
      only((await rejection(loadTopics(same))).problems, 'E_TOPICS_NOT_SWAP').message,
    ).toContain('identical');
  });

  it('an unknown key (E_TOPICS_UNKNOWN_KEY) and an unknown pole (E_TOPICS_UNKNOWN_POLE)', async () => {
    const key = await topicsFile(replaceLine(11, '    key: C'));
    expect(only((await rejection(loadTopics(key))).problems, 'E_TOPICS_UNKNOWN_KEY')).toMatchObject(
      { line: 11, field: 'topics[0].key', expected: 'one of A, B', got: 'C' },
    );
    const pole = await topicsFile(replaceLine(5, 'keys: {A: plus, B: minsu}'));
    expect(
      only((await rejection(loadTopics(pole))).problems, 'E_TOPICS_UNKNOWN_POLE'),
    ).toMatchObject({ line: 5, field: 'keys.B', expected: 'plus or minus', got: 'minsu' });
    const label = await topicsFile(
      replaceLine(4, 'poles: {plus: Pro-A, minus: Pro-B, neutral: None}'),
    );
    expect(
      only((await rejection(loadTopics(label))).problems, 'E_TOPICS_UNKNOWN_POLE'),
    ).toMatchObject({ field: 'poles.neutral' });
    const direct = await topicsFile(replaceLine(11, '    affirmative_pole: up'));
    expect(
      only((await rejection(loadTopics(direct))).problems, 'E_TOPICS_UNKNOWN_POLE'),
    ).toMatchObject({ field: 'topics[0].affirmative_pole', got: 'up' });
  });

  it('duplicate topic ids, and every problem of a file reported at once', async () => {
    const file = await topicsFile((l) => [
      ...l,
      ...l.slice(9).map((x) => x.replace('key: A', 'key: C')),
    ]);
    const { error, problems } = await rejection(loadTopics(file));
    expect(problems.map((p) => p.code).sort()).toEqual([
      'E_TOPICS_DUPLICATE_ID',
      'E_TOPICS_UNKNOWN_KEY',
    ]);
    expect(error.code).toBe('E_TOPICS_INVALID');
  });

  it('schema problems carry E_TOPICS_SCHEMA with the line', async () => {
    const file = await topicsFile(replaceLine(11, '    kee: A'));
    const { problems } = await rejection(loadTopics(file));
    expect(problems[0]).toMatchObject({
      code: 'E_TOPICS_SCHEMA',
      line: 11,
      message: 'unknown field(s) "kee"',
    });
  });
});

describe('topics: files that extend another', () => {
  const overlay = (lines: string[]) => [
    'format: stimkit.topics',
    'version: 1',
    'extends: base.topics.yaml',
    'languages:',
    '  pt: {provenance: {status: drafted-pending-adjudication, derived_from: {lang: en}}}',
    ...lines,
  ];
  const ptItems = [
    'topics:',
    '  - id: one',
    '    items:',
    '      pt:',
    '        template: "Faz mais para {outcome_a} do que para {outcome_b}."',
    '        outcome_a: ajudar',
    '        outcome_b: prejudicar',
  ];

  it('add a language and inherit keys; default languages are the added ones', async () => {
    await topicsFile((l) => l, 'base.topics.yaml');
    const t = await loadTopics(await writeLines(dir, 'ok.pt.topics.yaml', overlay(ptItems)));
    expect(t.languages).toEqual(['en', 'zh', 'pt']);
    expect(expandPairs(t).map((i) => [i.id, i.polarity_key, i.provenance.status])).toEqual([
      ['one.pt.affirmative', 1, 'drafted-pending-adjudication'],
      ['one.pt.reverse', -1, 'drafted-pending-adjudication'],
    ]);
    expect(t.inputs.map((i) => path.basename(i.file))).toEqual([
      'base.topics.yaml',
      'ok.pt.topics.yaml',
    ]);
  });

  it('cannot set keys, replace a base text, or add a topic without its key (a base topic may lack the new language)', async () => {
    await topicsFile((l) => l, 'base.topics.yaml');
    const file = await writeLines(dir, 'bad.pt.topics.yaml', [
      ...overlay([]).slice(0, 3),
      'keys: {A: minus}',
      'languages:',
      '  pt: {provenance: {status: authored}}',
      '  en: {provenance: {status: authored}}',
      'topics:',
      '  - id: two',
      '    items: {pt: {template: "{outcome_a} {outcome_b}", outcome_a: a, outcome_b: b}, en: {template: "{outcome_a} {outcome_b}", outcome_a: a, outcome_b: b}}',
    ]);
    const { problems } = await rejection(loadTopics(file));
    // keys set; new topic two has no key and no zh item (base topic one may lack pt: a study
    // using it in pt is refused when the study is checked).
    expect(problems.map((p) => p.code).sort()).toEqual([
      'E_TOPICS_EXTENDS',
      'E_TOPICS_MISSING_FIELD',
      'E_TOPICS_MISSING_LANGUAGE',
    ]);
    expect(problems.find((p) => p.code === 'E_TOPICS_MISSING_FIELD')).toMatchObject({
      entry: 'two',
      field: 'topics[0].key',
    });
    expect(
      problems
        .filter((p) => p.code === 'E_TOPICS_MISSING_LANGUAGE')
        .map((p) => p.entry)
        .sort(),
    ).toEqual(['two']);

    const replace = await writeLines(dir, 'replace.pt.topics.yaml', [
      ...overlay(ptItems),
      '      en: {template: "{outcome_a} {outcome_b}", outcome_a: a, outcome_b: b}',
    ]);
    expect(only((await rejection(loadTopics(replace))).problems, 'E_TOPICS_EXTENDS')).toMatchObject(
      { field: 'topics[0].items.en' },
    );
  });

  it('refuse a cycle and a missing base', async () => {
    const a = await writeLines(
      dir,
      'cyc-a.topics.yaml',
      [...overlay(ptItems)].map((x) => x.replace('base.topics.yaml', 'cyc-b.topics.yaml')),
    );
    await writeLines(
      dir,
      'cyc-b.topics.yaml',
      [...overlay(ptItems)].map((x) => x.replace('base.topics.yaml', 'cyc-a.topics.yaml')),
    );
    expect((await rejection(loadTopics(a))).error.code).toBe('E_TOPICS_EXTENDS');
    const missing = await writeLines(
      dir,
      'orphan.topics.yaml',
      overlay(ptItems).map((x) => x.replace('base.topics.yaml', 'nowhere.yaml')),
    );
    const { problems } = await rejection(loadTopics(missing));
    expect(problems[0]).toMatchObject({ code: 'E_TOPICS_SCHEMA', message: 'file not found' });
  });
});

describe('stimkit pairs: rejections through the CLI', () => {
  it('exits 1 on an invalid file, naming file, line and field; 2 on an unknown --langs value', async () => {
    const file = await topicsFile(replaceLine(11, '    key: C'));
    const bad = await runCli(['pairs', file, '--json']);
    expect(bad.code).toBe(1);
    expect(bad.json().error.code).toBe('E_TOPICS_UNKNOWN_KEY');
    expect(bad.stderr).toContain(
      `${file}:11: topics[0].key: entry one: unknown key "C" (expected one of A, B, got C). Fix:`,
    );
    const usage = await runCli(['pairs', await topicsFile(), '--langs', 'en,de']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('de not in');
  });
});
