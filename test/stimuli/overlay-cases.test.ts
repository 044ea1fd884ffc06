// Files that extend another, pinned case by case: every problem of a file in order with its full
// text, and the merged file of a good chain (as JSON, so key order is pinned too).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTopics } from '../../src/stimuli/topics.js';
import { tempDir } from '../helpers/tmp.js';
import { writeLines } from './helpers.js';
import type { TopicsFile } from '../../src/stimuli/topics.js';
import { OVERLAY_FILES, asJson, problemsOf } from './topics-cases.js';

const dir = await tempDir('stimkit-overlay-cases-');
for (const [name, lines] of Object.entries(OVERLAY_FILES)) await writeLines(dir, name, lines);
const at = (name: string) => path.join(dir, name);

/** The file with its topics as ids and its inputs as names (their items are checked by brief). */
const top = (t: TopicsFile) => ({
  ...t,
  topics: t.topics.map((x) => x.id),
  inputs: t.inputs.map((i) => path.basename(i.file)),
});
/** Each topic: id, title, key, pole, poles, and per language its two sentences and provenance. */
const brief = (t: TopicsFile) =>
  t.topics.map((x) => [
    x.id,
    x.title,
    x.key,
    x.affirmative_pole,
    x.poles,
    Object.entries(x.items).map(([l, i]) => [l, i.affirmative, i.reverse, i.provenance]),
  ]);

describe('files that extend another: the problems and the output, exactly', () => {
  it('reports every problem of an extending file, in order, with its full text', async () => {
    const file = at('bad.pt.topics.yaml');
    expect(asJson(await problemsOf(loadTopics(file), file))).toBe(
      asJson([
        {
          line: 4,
          field: 'domain',
          code: 'E_TOPICS_EXTENDS',
          message: 'a file that extends base.topics.yaml inherits domain; it cannot set it',
          fix: 'remove domain',
        },
        {
          line: 5,
          field: 'poles',
          code: 'E_TOPICS_EXTENDS',
          message: 'a file that extends base.topics.yaml inherits poles; it cannot set it',
          fix: 'remove poles',
        },
        {
          line: 6,
          field: 'keys',
          code: 'E_TOPICS_EXTENDS',
          message: 'a file that extends base.topics.yaml inherits keys; it cannot set it',
          fix: 'remove keys',
        },
        {
          line: 23,
          field: 'topics[2].id',
          code: 'E_TOPICS_DUPLICATE_ID',
          message: 'topic id "new" is used twice',
          expected: 'unique ids',
          got: 'topics[1] and topics[2]',
          fix: 'rename one of them',
        },
        {
          line: 11,
          field: 'topics[0].title',
          code: 'E_TOPICS_EXTENDS',
          message: 'topic "one" inherits title from the base file',
          fix: 'remove title',
        },
        {
          line: 12,
          field: 'topics[0].key',
          code: 'E_TOPICS_EXTENDS',
          message: 'topic "one" inherits key from the base file',
          fix: 'remove key',
        },
        {
          line: 13,
          field: 'topics[0].affirmative_pole',
          code: 'E_TOPICS_EXTENDS',
          message: 'topic "one" inherits affirmative_pole from the base file',
          fix: 'remove affirmative_pole',
        },
        {
          line: 14,
          field: 'topics[0].poles',
          code: 'E_TOPICS_EXTENDS',
          message: 'topic "one" inherits poles from the base file',
          fix: 'remove poles',
        },
        {
          line: 16,
          field: 'topics[0].items.en',
          code: 'E_TOPICS_EXTENDS',
          message: 'topic "one" already has its en item in the base file',
          fix: 'an extending file adds languages and topics; fix the base text in the base file',
        },
        {
          line: 17,
          field: 'topics[0].items.pt.template',
          message:
            'the template must contain both outcome slots, once each, so that the reverse is the swap',
          expected: '{outcome_a} once and {outcome_b} once',
          got: '{outcome_a}',
          fix: 'put {outcome_a} where the affirmative names its first outcome and {outcome_b} where it names the other',
          code: 'E_TOPICS_TEMPLATE_SLOTS',
          entry: 'one',
        },
        {
          line: 18,
          field: 'topics[0].items.fr',
          code: 'E_TOPICS_UNDECLARED_LANGUAGE',
          entry: 'one',
          message: "language fr is not declared in this file's languages",
          expected: 'pt',
          got: 'fr',
          fix: 'declare fr under languages (with its provenance) or remove the item',
        },
        {
          line: 22,
          field: 'topics[1].items.en',
          code: 'E_TOPICS_EXTENDS',
          message:
            'topic "new" adds a en text, but this file does not say where its en texts come from',
          fix: 'declare en under languages with the provenance of the texts this file adds (e.g. status: authored)',
        },
        {
          line: 20,
          field: 'topics[1].key',
          code: 'E_TOPICS_UNKNOWN_KEY',
          entry: 'new',
          message: 'unknown key "C"',
          expected: 'one of A, B',
          got: 'C',
          fix: 'use a key declared under keys (of the base file, for a file that extends one), or declare it there',
        },
        {
          line: 22,
          field: 'topics[1].items',
          code: 'E_TOPICS_MISSING_LANGUAGE',
          entry: 'new',
          message: 'topic "new" has no item in pt',
          expected: 'items for en, pt',
          got: 'en',
          fix: 'add items.pt',
        },
        {
          line: 27,
          field: 'topics[2].items.en',
          code: 'E_TOPICS_EXTENDS',
          message:
            'topic "new" adds a en text, but this file does not say where its en texts come from',
          fix: 'declare en under languages with the provenance of the texts this file adds (e.g. status: authored)',
        },
      ]),
    );
  });

  it('refuses a file that adds nothing', async () => {
    const file = at('nothing.topics.yaml');
    expect(asJson(await problemsOf(loadTopics(file), file))).toBe(
      asJson([
        {
          line: 8,
          field: 'topics[0].poles',
          code: 'E_TOPICS_EXTENDS',
          message: 'topic "two" inherits poles from the base file',
          fix: 'remove poles',
        },
        {
          line: 5,
          field: 'languages',
          code: 'E_TOPICS_EXTENDS',
          message: 'this file adds neither a language nor a topic',
          fix: 'add a language (with every topic in it) or a new topic (in every language)',
        },
      ]),
    );
  });

  const AB = { plus: 'Pro-A', minus: 'Pro-B' };
  const AUTHORED = { status: 'authored' };
  const PT = { status: 'drafted-pending-adjudication', derived_from: { lang: 'en' } };
  /** good.pt.topics.yaml, merged onto its base. */
  const WITH_PT = {
    format: 'stimkit.topics',
    version: 1,
    domain: 'test',
    title: 'With Portuguese',
    poles: AB,
    keys: { A: 'plus', B: 'minus' },
    languages: ['en', 'pt'],
    language_info: {
      en: { name: 'English', provenance: AUTHORED },
      pt: { name: 'Portuguese', provenance: PT },
    },
    default_languages: ['pt'],
    topics: ['one', 'two'],
    inputs: ['base.topics.yaml', 'good.pt.topics.yaml'],
  };
  /** The base topics with their added pt items, in base order. */
  const WITH_PT_TOPICS = [
    [
      'one',
      'one',
      'A',
      'plus',
      AB,
      [
        ['en', 'help over harm', 'harm over help', AUTHORED],
        ['pt', 'ajudar over prejudicar', 'prejudicar over ajudar', PT],
      ],
    ],
    [
      'two',
      'Two',
      'B',
      'minus',
      { plus: 'Pro-X', minus: 'Pro-Y' },
      [
        ['en', 'rise over fall', 'fall over rise', AUTHORED],
        ['pt', 'subir over descer', 'descer over subir', PT],
      ],
    ],
  ];

  it('merges an added language: base topics gain its items, in base order', async () => {
    const t = await loadTopics(at('good.pt.topics.yaml'));
    expect(asJson(top(t))).toBe(asJson(WITH_PT));
    expect(asJson(brief(t))).toBe(asJson(WITH_PT_TOPICS));
  });

  it('merges an added topic on top of an added language, keeping the default languages', async () => {
    const t = await loadTopics(at('good.more.topics.yaml'));
    expect(asJson(top(t))).toBe(
      asJson({
        ...WITH_PT,
        topics: ['one', 'two', 'three'],
        inputs: [...WITH_PT.inputs, 'good.more.topics.yaml'],
      }),
    );
    // The new topic's texts take the provenance this file declares for en and pt; the file's
    // language_info and default languages stay the base's.
    expect(asJson(brief(t))).toBe(
      asJson([
        ...WITH_PT_TOPICS,
        [
          'three',
          'three',
          null,
          'minus',
          AB,
          [
            ['en', 'win over lose', 'lose over win', { status: 'published', source: 'A paper' }],
            ['pt', 'ganhar over perder', 'perder over ganhar', AUTHORED],
          ],
        ],
      ]),
    );
  });
});
