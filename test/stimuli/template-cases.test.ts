// Template items, pinned case by case: every slot problem of a file in order with its full text,
// and the full resolved items of good templates (as JSON, so key order is pinned too).
import { describe, expect, it } from 'vitest';
import { loadTopics } from '../../src/stimuli/topics.js';
import { tempDir } from '../helpers/tmp.js';
import { writeLines } from './helpers.js';
import { BAD_TEMPLATES, GOOD_ITEMS, asJson, problemsOf } from './topics-cases.js';

const dir = await tempDir('stimkit-template-cases-');

describe('template items: the problems and the output, exactly', () => {
  it('reports every slot problem of every item, in order, with its full text', async () => {
    const file = await writeLines(dir, 'templates.topics.yaml', BAD_TEMPLATES);
    expect(asJson(await problemsOf(loadTopics(file), file))).toBe(
      asJson([
        {
          line: 13,
          field: 'topics[0].items.en.template',
          message: 'unknown slot {sbject}',
          expected: '{subject}, {outcome_a}, {outcome_b} or {outcome_a.PART}/{outcome_b.PART}',
          got: '{sbject}',
          fix: 'correct the slot name',
          code: 'E_TOPICS_TEMPLATE_SLOTS',
          entry: 'strings',
        },
        {
          line: 13,
          field: 'topics[0].items.en.template',
          message: 'unknown slot {other}',
          expected: '{subject}, {outcome_a}, {outcome_b} or {outcome_a.PART}/{outcome_b.PART}',
          got: '{other}',
          fix: 'correct the slot name',
          code: 'E_TOPICS_TEMPLATE_SLOTS',
          entry: 'strings',
        },
        {
          line: 13,
          field: 'topics[0].items.en.template',
          message:
            'the template must contain both outcome slots, once each, so that the reverse is the swap',
          expected: '{outcome_a} once and {outcome_b} once',
          got: '{outcome_a}, {outcome_a}, {outcome_b.x}',
          fix: 'put {outcome_a} where the affirmative names its first outcome and {outcome_b} where it names the other',
          code: 'E_TOPICS_TEMPLATE_SLOTS',
          entry: 'strings',
        },
        {
          line: 13,
          field: 'topics[0].items.en.template',
          message: 'the template uses {subject} but the item gives no subject',
          expected: 'a subject field',
          got: 'nothing',
          fix: 'add subject, or write the subject into the template',
          code: 'E_TOPICS_TEMPLATE_SLOTS',
          entry: 'strings',
        },
        {
          line: 22,
          field: 'topics[1].items.en.outcome_b',
          code: 'E_TOPICS_OUTCOME_PARTS',
          message:
            'outcome_a and outcome_b must have the same parts, or the swap would leave a part behind',
          expected: 'o, v',
          got: 't, v',
          fix: 'give both outcomes the same part names',
          entry: 'parts-differ',
        },
        {
          line: 28,
          field: 'topics[2].items.en.template',
          message:
            'a template with multi-part outcomes needs slots of both outcomes ({outcome_a.PART} and {outcome_b.PART}), each slot once, naming declared parts',
          expected:
            'slots among {outcome_a.o}, {outcome_b.o}, {outcome_a.v}, {outcome_b.v}, with both outcomes present',
          got: '{outcome_a.v}, {outcome_a.v}, {outcome_a.q}, {outcome_a}',
          fix: 'put an {outcome_a.PART} slot where the affirmative names its first outcome and an {outcome_b.PART} slot where it names the other',
          code: 'E_TOPICS_TEMPLATE_SLOTS',
          entry: 'part-slots',
        },
        {
          line: 27,
          field: 'topics[2].items.en.subject',
          code: 'E_TOPICS_TEMPLATE_SLOTS',
          message: 'subject is given but the template has no {subject} slot',
          fix: 'add {subject} to the template or remove subject',
          entry: 'part-slots',
        },
        {
          line: 36,
          field: 'topics[3].items.en.outcome_a',
          code: 'E_TOPICS_OUTCOME_PARTS',
          message: 'part(s) o are declared but no slot uses them',
          expected: 'slots using {outcome_a.o} or {outcome_b.…}',
          got: '{outcome_a.v}, {outcome_b.v}',
          fix: 'use the part in the template or remove it from both outcomes',
          entry: 'part-unused',
        },
        {
          line: 44,
          field: 'topics[4].items.en.outcome_b',
          code: 'E_TOPICS_OUTCOME_PARTS',
          message: 'one outcome is a string and the other has parts',
          expected: 'both strings, or both with the same parts',
          got: 'outcome_a a string, outcome_b with parts',
          fix: 'write both outcomes the same way',
          entry: 'mixed-a',
        },
        {
          line: 51,
          field: 'topics[5].items.en.outcome_b',
          code: 'E_TOPICS_OUTCOME_PARTS',
          message: 'one outcome is a string and the other has parts',
          expected: 'both strings, or both with the same parts',
          got: 'outcome_a with parts, outcome_b a string',
          fix: 'write both outcomes the same way',
          entry: 'mixed-b',
        },
        {
          line: 56,
          field: 'topics[6].items.en.subject',
          code: 'E_TOPICS_TEMPLATE_SLOTS',
          message: 'subject is given but the template has no {subject} slot',
          fix: 'add {subject} to the template or remove subject',
          entry: 'subject-same',
        },
        {
          line: 59,
          field: 'topics[6].items.en.outcome_b',
          code: 'E_TOPICS_IDENTICAL_OUTCOMES',
          message:
            'outcome_a and outcome_b are the same, so the reverse would equal the affirmative',
          fix: 'give the two compared outcomes',
          entry: 'subject-same',
        },
        {
          line: 66,
          field: 'topics[7].items.en.outcome_b',
          code: 'E_TOPICS_IDENTICAL_OUTCOMES',
          message:
            'outcome_a and outcome_b are the same, so the reverse would equal the affirmative',
          fix: 'give the two compared outcomes',
          entry: 'parts-same',
        },
        {
          line: 71,
          field: 'topics[8].items.en.template',
          message:
            'the template must contain both outcome slots, once each, so that the reverse is the swap',
          expected: '{outcome_a} once and {outcome_b} once',
          got: '{outcome_a}, {outcome_b}, {outcome_a.v}',
          fix: 'put {outcome_a} where the affirmative names its first outcome and {outcome_b} where it names the other',
          code: 'E_TOPICS_TEMPLATE_SLOTS',
          entry: 'string-part',
        },
      ]),
    );
  });

  it('resolves a string template (subject, {outcome_b} first) and a multi-part one', async () => {
    const t = await loadTopics(await writeLines(dir, 'good.topics.yaml', GOOD_ITEMS));
    expect(asJson(t.topics[0])).toBe(
      asJson({
        id: 'template',
        title: 'Templates',
        key: 'B',
        affirmative_pole: 'minus',
        poles: {
          plus: 'Pro-X',
          minus: 'Pro-Y',
        },
        items: {
          en: {
            lang: 'en',
            form: 'template',
            template: '{subject} does more to {outcome_b} than to {outcome_a}.',
            subject: 'Trade',
            outcome_a: 'help',
            outcome_b: 'harm',
            affirmative: 'Trade does more to harm than to help.',
            reverse: 'Trade does more to help than to harm.',
            affirmative_outcome_first: 'b',
            provenance: {
              status: 'authored',
            },
          },
          zh: {
            lang: 'zh',
            form: 'template',
            template: '{outcome_a.v}{outcome_a.o}多于{outcome_b.v}{outcome_b.o}。',
            subject: null,
            outcome_a: {
              v: '帮助',
              o: '人',
            },
            outcome_b: {
              v: '伤害',
              o: '城市',
            },
            affirmative: '帮助人多于伤害城市。',
            reverse: '伤害城市多于帮助人。',
            affirmative_outcome_first: 'a',
            provenance: {
              status: 'drafted-pending-adjudication',
              derived_from: {
                lang: 'en',
              },
            },
          },
        },
      }),
    );
  });
});
