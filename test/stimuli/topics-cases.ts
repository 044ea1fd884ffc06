/**
 * Topics files that pin the loader's behaviour case by case: each bad file holds many problems at
 * once (so the order and full text of every problem is checked), each good file a spread of forms
 * (so the full resolved output is checked). Used by the *-cases tests of topic items and of files
 * that extend another.
 */
import { expect } from 'vitest';
import type { Problem } from '../../src/core/errors.js';
import { rejection } from './helpers.js';

/** Await a load that must fail; return its problems without `severity` and `file` (checked here). */
export async function problemsOf(
  promise: Promise<unknown>,
  file: string,
): Promise<Omit<Problem, 'severity' | 'file'>[]> {
  const { problems } = await rejection(promise);
  return problems.map(({ severity, file: at, ...rest }) => {
    expect([severity, at]).toEqual(['error', file]);
    return rest;
  });
}

/** The head of a base topics file in `langs` (each authored), up to `topics:`. */
function head(langs: string[], extra: string[] = []): string[] {
  return [
    'format: stimkit.topics',
    'version: 1',
    'domain: test',
    ...extra,
    'poles: {plus: Pro-A, minus: Pro-B}',
    'keys: {A: plus, B: minus}',
    'languages:',
    ...langs.map((l) => `  ${l}: {provenance: {status: authored}}`),
    'topics:',
  ];
}

/** A topic keyed A with one English item of the given fields. */
const enTopic = (id: string, item: string[]) => [
  `  - id: ${id}`,
  '    key: A',
  '    items:',
  '      en:',
  ...item.map((l) => `        ${l}`),
];

/** Templates with every kind of slot problem, several in one item where they can co-occur. */
export const BAD_TEMPLATES = [
  ...head(['en']),
  ...enTopic('strings', [
    'template: "{sbject} {outcome_a} {outcome_a} {outcome_b.x} {other} {subject}"',
    'outcome_a: help',
    'outcome_b: harm',
  ]),
  ...enTopic('parts-differ', [
    'template: "{outcome_a.v} {outcome_b.v}"',
    'outcome_a: {v: helps, o: people}',
    'outcome_b: {v: harms, t: cities}',
  ]),
  ...enTopic('part-slots', [
    'subject: It',
    'template: "{outcome_a.v} {outcome_a.v} {outcome_a.q} {outcome_a}"',
    'outcome_a: {v: helps, o: people}',
    'outcome_b: {v: harms, o: cities}',
  ]),
  ...enTopic('part-unused', [
    'template: "It {outcome_a.v} more than it {outcome_b.v}."',
    'outcome_a: {v: helps, o: people}',
    'outcome_b: {v: harms, o: cities}',
  ]),
  ...enTopic('mixed-a', [
    'template: "{outcome_a} {outcome_b.v}"',
    'outcome_a: help',
    'outcome_b: {v: harm}',
  ]),
  ...enTopic('mixed-b', [
    'template: "{outcome_a.v} {outcome_b}"',
    'outcome_a: {v: help}',
    'outcome_b: harm',
  ]),
  ...enTopic('subject-same', [
    'subject: It',
    'template: "{outcome_a} or {outcome_b}"',
    'outcome_a: help',
    'outcome_b: help',
  ]),
  ...enTopic('parts-same', [
    'template: "{outcome_a.v} or {outcome_b.v}"',
    'outcome_a: {v: help}',
    'outcome_b: {v: help}',
  ]),
  ...enTopic('string-part', [
    'template: "{outcome_a} or {outcome_b} {outcome_a.v}"',
    'outcome_a: help',
    'outcome_b: harm',
  ]),
];

const AFF = 'affirmative: It helps more than it harms.';
const REV = 'reverse: It harms more than it helps.';

/** Explicit pairs with every kind of form and swap problem (one per item: each ends the item). */
export const BAD_PAIRS = [
  ...head(['en']),
  ...enTopic('no-reverse', [AFF]),
  ...enTopic('subject', ['subject: It', AFF, REV]),
  ...enTopic('only-a', [AFF, REV, 'outcome_a: helps']),
  ...enTopic('only-b', [AFF, REV, 'outcome_b: harms']),
  ...enTopic('parts', [AFF, REV, 'outcome_a: {v: helps}', 'outcome_b: {v: harms}']),
  ...enTopic('same', [AFF, REV, 'outcome_a: helps', 'outcome_b: helps']),
  ...enTopic('twice', [
    'affirmative: It helps, helps more than it harms.',
    'reverse: It harms, helps more than it helps.',
    'outcome_a: helps',
    'outcome_b: harms',
  ]),
  ...enTopic('absent', [AFF, REV, 'outcome_a: helps', 'outcome_b: hurts']),
  ...enTopic('named-more', [
    AFF,
    'reverse: It harms much more than it helps.',
    'outcome_a: helps',
    'outcome_b: harms',
  ]),
  ...enTopic('inferred-same', [AFF, 'reverse: It helps more than it harms.']),
  ...enTopic('inferred-other', [AFF, 'reverse: It harms more than it aids.']),
];

/**
 * Good items in en and zh: templates (a string pair with a subject and {outcome_b} first; a
 * multi-part pair with its own provenance) and explicit pairs (named outcomes, b first; inferred).
 */
export const GOOD_ITEMS = [
  ...head(['en', 'zh'], ['title: Good items']),
  '  - id: template',
  '    title: Templates',
  '    key: B',
  '    poles: {plus: Pro-X, minus: Pro-Y}',
  '    items:',
  '      en:',
  '        template: "{subject} does more to {outcome_b} than to {outcome_a}."',
  '        subject: Trade',
  '        outcome_a: help',
  '        outcome_b: harm',
  '      zh:',
  '        template: "{outcome_a.v}{outcome_a.o}多于{outcome_b.v}{outcome_b.o}。"',
  '        outcome_a: {v: 帮助, o: 人}',
  '        outcome_b: {v: 伤害, o: 城市}',
  '        provenance: {status: drafted-pending-adjudication, derived_from: {lang: en}}',
  '  - id: explicit',
  '    affirmative_pole: minus',
  '    items:',
  '      en:',
  '        affirmative: It harms more than it helps.',
  '        reverse: It helps more than it harms.',
  '        outcome_a: helps',
  '        outcome_b: harms',
  '      zh:',
  '        affirmative: 帮助大于伤害。',
  '        reverse: 伤害大于帮助。',
];

/** An item line `lang: {template: "{outcome_a} over {outcome_b}", …}` with outcomes a and b. */
const over = (lang: string, a: string, b: string) =>
  `      ${lang}: {template: "{outcome_a} over {outcome_b}", outcome_a: ${a}, outcome_b: ${b}}`;

/**
 * A base file and files that extend it, by name: one with every overlay problem at once, one that
 * adds nothing, and a good chain (base ← adds pt ← adds a topic).
 */
export const OVERLAY_FILES: Record<string, string[]> = {
  'base.topics.yaml': [
    'format: stimkit.topics',
    'version: 1',
    'domain: test',
    'title: Base',
    'poles: {plus: Pro-A, minus: Pro-B}',
    'keys: {A: plus, B: minus}',
    'languages:',
    '  en: {name: English, provenance: {status: authored}}',
    'topics:',
    '  - id: one',
    '    key: A',
    '    items:',
    over('en', 'help', 'harm'),
    '  - id: two',
    '    title: Two',
    '    key: B',
    '    poles: {plus: Pro-X, minus: Pro-Y}',
    '    items:',
    over('en', 'rise', 'fall'),
  ],
  'bad.pt.topics.yaml': [
    'format: stimkit.topics',
    'version: 1',
    'extends: base.topics.yaml',
    'domain: other',
    'poles: {plus: X, minus: Y}',
    'keys: {A: minus}',
    'languages:',
    '  pt: {provenance: {status: authored}}',
    'topics:',
    '  - id: one',
    '    title: One again',
    '    key: B',
    '    affirmative_pole: plus',
    '    poles: {plus: P, minus: M}',
    '    items:',
    over('en', 'aid', 'hurt'),
    '      pt: {template: "{outcome_a}", outcome_a: ajudar, outcome_b: prejudicar}',
    over('fr', 'aider', 'nuire'),
    '  - id: new',
    '    key: C',
    '    items:',
    over('en', 'grow', 'shrink'),
    '  - id: new',
    '    key: A',
    '    items:',
    over('pt', 'subir', 'descer'),
    over('en', 'up', 'down'),
  ],
  'nothing.topics.yaml': [
    'format: stimkit.topics',
    'version: 1',
    'extends: base.topics.yaml',
    'languages:',
    '  en: {provenance: {status: authored}}',
    'topics:',
    '  - id: two',
    '    poles: {plus: P, minus: M}',
    '    items: {}',
  ],
  'good.pt.topics.yaml': [
    'format: stimkit.topics',
    'version: 1',
    'extends: base.topics.yaml',
    'title: With Portuguese',
    'languages:',
    '  pt: {name: Portuguese, provenance: {status: drafted-pending-adjudication, derived_from: {lang: en}}}',
    'topics:',
    '  - id: two',
    '    items:',
    over('pt', 'subir', 'descer'),
    '  - id: one',
    '    items:',
    over('pt', 'ajudar', 'prejudicar'),
  ],
  'good.more.topics.yaml': [
    'format: stimkit.topics',
    'version: 1',
    'extends: good.pt.topics.yaml',
    'languages:',
    '  en: {provenance: {status: published, source: A paper}}',
    '  pt: {provenance: {status: authored}}',
    'topics:',
    '  - id: three',
    '    affirmative_pole: minus',
    '    items:',
    over('pt', 'ganhar', 'perder'),
    over('en', 'win', 'lose'),
  ],
};

/** `x` as indented JSON: comparing these checks values and key order (what a JSON reader sees). */
export function asJson(x: unknown): string {
  return JSON.stringify(x, null, 1);
}
