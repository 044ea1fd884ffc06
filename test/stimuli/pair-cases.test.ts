// Explicit pairs, pinned case by case: every form and swap problem of a file in order with its full
// text, and the full resolved items of good pairs (as JSON, so key order is pinned too).
import { describe, expect, it } from 'vitest';
import { loadTopics } from '../../src/stimuli/topics.js';
import { tempDir } from '../helpers/tmp.js';
import { writeLines } from './helpers.js';
import { BAD_PAIRS, GOOD_ITEMS, asJson, problemsOf } from './topics-cases.js';

const dir = await tempDir('stimkit-pair-cases-');

describe('explicit pairs: the problems and the output, exactly', () => {
  it('reports the problem of every item, in order, with its full text', async () => {
    const file = await writeLines(dir, 'pairs.topics.yaml', BAD_PAIRS);
    expect(asJson(await problemsOf(loadTopics(file), file))).toBe(
      asJson([
        {
          line: 13,
          field: 'topics[0].items.en',
          code: 'E_TOPICS_ITEM_FORM',
          message: 'an item needs a template, or both affirmative and reverse',
          fix: 'add template (with {outcome_a} and {outcome_b}) or the missing sentence',
          entry: 'no-reverse',
        },
        {
          line: 18,
          field: 'topics[1].items.en.subject',
          code: 'E_TOPICS_ITEM_FORM',
          message: 'subject belongs to templates; an explicit pair already contains it',
          fix: 'remove subject',
          entry: 'subject',
        },
        {
          line: 25,
          field: 'topics[2].items.en.outcome_b',
          code: 'E_TOPICS_ITEM_FORM',
          message: 'give both outcome_a and outcome_b, or neither',
          fix: 'add the missing outcome',
          entry: 'only-a',
        },
        {
          line: 32,
          field: 'topics[3].items.en.outcome_a',
          code: 'E_TOPICS_ITEM_FORM',
          message: 'give both outcome_a and outcome_b, or neither',
          fix: 'add the missing outcome',
          entry: 'only-b',
        },
        {
          line: 41,
          field: 'topics[4].items.en.outcome_a',
          code: 'E_TOPICS_ITEM_FORM',
          message: 'multi-part outcomes need a template',
          fix: 'write the item as a template with {outcome_a.PART} slots',
          entry: 'parts',
        },
        {
          line: 50,
          field: 'topics[5].items.en.outcome_b',
          code: 'E_TOPICS_IDENTICAL_OUTCOMES',
          message: 'outcome_a and outcome_b are the same',
          fix: 'give the two compared outcomes',
          entry: 'same',
        },
        {
          line: 56,
          field: 'topics[6].items.en.reverse',
          code: 'E_TOPICS_NOT_SWAP',
          message:
            'the reverse cannot be checked: outcome_a "helps" occurs 2 times in the affirmative (expected once)',
          got: 'It harms, helps more than it helps.',
          fix: 'name outcome terms that occur exactly once in the affirmative',
          entry: 'twice',
        },
        {
          line: 64,
          field: 'topics[7].items.en.reverse',
          code: 'E_TOPICS_NOT_SWAP',
          message:
            'the reverse cannot be checked: outcome_b "hurts" occurs 0 times in the affirmative (expected once)',
          got: 'It harms more than it helps.',
          fix: 'name outcome terms that occur exactly once in the affirmative',
          entry: 'absent',
        },
        {
          line: 72,
          field: 'topics[8].items.en.reverse',
          code: 'E_TOPICS_NOT_SWAP',
          message:
            'the reverse differs from the affirmative by more than the swap of "helps" and "harms" (first difference at character 11: expected …"It harms more than it helps."…, got …"It harms much more than it hel"…)',
          expected: 'It harms more than it helps.',
          got: 'It harms much more than it helps.',
          fix: 'make the reverse exactly the affirmative with its two outcome terms exchanged, or write the item as a template',
          entry: 'named-more',
        },
        {
          line: 80,
          field: 'topics[9].items.en.reverse',
          code: 'E_TOPICS_NOT_SWAP',
          message: 'the reverse is identical to the affirmative',
          expected: 'the affirmative with its two outcome terms exchanged',
          got: 'It helps more than it harms.',
          fix: 'make the reverse exactly the affirmative with its two outcome terms exchanged, or write the item as a template',
          entry: 'inferred-same',
        },
        {
          line: 86,
          field: 'topics[10].items.en.reverse',
          code: 'E_TOPICS_NOT_SWAP',
          message:
            'the reverse is not the affirmative with two terms exchanged (first difference at character 5: expected …"It helps more than it ha"…, got …"It harms more than it ai"…)',
          expected: 'the affirmative with its two outcome terms exchanged',
          got: 'It harms more than it aids.',
          fix: 'make the reverse exactly the affirmative with its two outcome terms exchanged, or write the item as a template',
          entry: 'inferred-other',
        },
      ]),
    );
  });

  it('resolves a pair with named outcomes (b first) and one with inferred outcomes', async () => {
    const t = await loadTopics(await writeLines(dir, 'good.topics.yaml', GOOD_ITEMS));
    expect(asJson(t.topics[1])).toBe(
      asJson({
        id: 'explicit',
        title: 'explicit',
        key: null,
        affirmative_pole: 'minus',
        poles: {
          plus: 'Pro-A',
          minus: 'Pro-B',
        },
        items: {
          en: {
            lang: 'en',
            form: 'explicit',
            template: null,
            subject: null,
            outcome_a: 'helps',
            outcome_b: 'harms',
            affirmative: 'It harms more than it helps.',
            reverse: 'It helps more than it harms.',
            affirmative_outcome_first: 'b',
            provenance: {
              status: 'authored',
            },
          },
          zh: {
            lang: 'zh',
            form: 'explicit',
            template: null,
            subject: null,
            outcome_a: '帮助',
            outcome_b: '伤害',
            affirmative: '帮助大于伤害。',
            reverse: '伤害大于帮助。',
            affirmative_outcome_first: 'a',
            provenance: {
              status: 'authored',
            },
          },
        },
      }),
    );
  });
});
