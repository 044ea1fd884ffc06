/**
 * One topic in one language, from its written form (a template or an explicit sentence pair) to
 * its two rendered sentences, with every rule checked: both outcome slots once each, a subject
 * slot only with a subject, parts that match, distinct outcomes, and, for explicit pairs, that
 * the reverse is the affirmative with the outcomes exchanged and nothing else.
 */
import type { ParsedDataFile } from '../core/datafile.js';
import type { Problem } from '../core/errors.js';
import { problemAt } from './datafile.js';
import type { TextProvenance } from './provenance.js';
import { exchangeTerms, findSwap, firstDifference } from './swap.js';
import { fillTemplate, parseTemplate, slotNames, type Segment } from './template.js';
import type { Outcome, TopicItemInput } from './topics-schema.js';

/** A topic in one language, resolved and checked. */
export interface TopicItem {
  lang: string;
  /** How it was written: a template, or an explicit sentence pair. */
  form: 'template' | 'explicit';
  template: string | null;
  subject: string | null;
  /** The outcome in the `{outcome_a}` slot of the affirmative (for an inferred pair: the first swapped term). */
  outcome_a: Outcome;
  outcome_b: Outcome;
  affirmative: string;
  reverse: string;
  /** Which outcome's term comes first in the affirmative sentence. */
  affirmative_outcome_first: 'a' | 'b';
  provenance: TextProvenance;
}

const WHOLE = new Set(['outcome_a', 'outcome_b']);

function sameOutcome(a: Outcome, b: Outcome): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function describeSlots(names: string[]): string {
  const outcome = names.filter((n) => n.startsWith('outcome_'));
  return outcome.length === 0 ? 'no outcome slot' : outcome.map((n) => `{${n}}`).join(', ');
}

/** Check the slots of a template against its outcomes and subject; return problems. */
// eslint-disable-next-line max-lines-per-function -- not yet split by phase (see docs/DESIGN.md, layout)
function checkSlots(
  segments: Segment[],
  item: TopicItemInput,
  at: (string | number)[],
  parsed: ParsedDataFile,
): Problem[] {
  const problems: Problem[] = [];
  const names = slotNames(segments);
  const a = item.outcome_a!;
  const b = item.outcome_b!;
  const slots = (p: Omit<Problem, 'severity' | 'file' | 'line' | 'field' | 'code'>) =>
    problems.push(
      problemAt(parsed, [...at, 'template'], { ...p, code: 'E_TOPICS_TEMPLATE_SLOTS' }),
    );
  for (const n of names) {
    const [head, part] = n.split('.');
    if (n === 'subject' || WHOLE.has(n) || (part !== undefined && WHOLE.has(head!))) continue;
    slots({
      message: `unknown slot {${n}}`,
      expected: '{subject}, {outcome_a}, {outcome_b} or {outcome_a.PART}/{outcome_b.PART}',
      got: `{${n}}`,
      fix: 'correct the slot name',
    });
  }
  if (typeof a === 'string' && typeof b === 'string') {
    const ca = names.filter((n) => n === 'outcome_a').length;
    const cb = names.filter((n) => n === 'outcome_b').length;
    const parts = names.filter((n) => /^outcome_[ab]\./.test(n));
    if (ca !== 1 || cb !== 1 || parts.length > 0) {
      slots({
        message:
          'the template must contain both outcome slots, once each, so that the reverse is the swap',
        expected: '{outcome_a} once and {outcome_b} once',
        got: describeSlots(names),
        fix: 'put {outcome_a} where the affirmative names its first outcome and {outcome_b} where it names the other',
      });
    }
  } else if (typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    if (ka.join() !== kb.join()) {
      problems.push(
        problemAt(parsed, [...at, 'outcome_b'], {
          code: 'E_TOPICS_OUTCOME_PARTS',
          message:
            'outcome_a and outcome_b must have the same parts, or the swap would leave a part behind',
          expected: ka.join(', '),
          got: kb.join(', '),
          fix: 'give both outcomes the same part names',
        }),
      );
    } else {
      // Each outcome must appear (through at least one of its parts), every part must be used,
      // no part slot twice, and no whole-outcome slot (it has no single text).
      const partSlots = names.filter((n) => /^outcome_[ab]\./.test(n));
      const has = (o: string) => partSlots.some((n) => n.startsWith(`${o}.`));
      const repeated = partSlots.filter((n, i) => partSlots.indexOf(n) !== i);
      const unknown = partSlots.filter((n) => !ka.includes(n.split('.')[1]!));
      const unusedParts = ka.filter((k) => !partSlots.some((n) => n.endsWith(`.${k}`)));
      const whole = names.filter((n) => WHOLE.has(n));
      if (
        !has('outcome_a') ||
        !has('outcome_b') ||
        repeated.length > 0 ||
        unknown.length > 0 ||
        whole.length > 0
      ) {
        slots({
          message:
            'a template with multi-part outcomes needs slots of both outcomes ({outcome_a.PART} and {outcome_b.PART}), each slot once, naming declared parts',
          expected: `slots among ${ka.flatMap((k) => [`{outcome_a.${k}}`, `{outcome_b.${k}}`]).join(', ')}, with both outcomes present`,
          got: describeSlots(names),
          fix: 'put an {outcome_a.PART} slot where the affirmative names its first outcome and an {outcome_b.PART} slot where it names the other',
        });
      } else if (unusedParts.length > 0) {
        problems.push(
          problemAt(parsed, [...at, 'outcome_a'], {
            code: 'E_TOPICS_OUTCOME_PARTS',
            message: `part(s) ${unusedParts.join(', ')} are declared but no slot uses them`,
            expected: `slots using ${unusedParts.map((k) => `{outcome_a.${k}}`).join(', ')} or {outcome_b.…}`,
            got: describeSlots(names),
            fix: 'use the part in the template or remove it from both outcomes',
          }),
        );
      }
    }
  } else {
    problems.push(
      problemAt(parsed, [...at, 'outcome_b'], {
        code: 'E_TOPICS_OUTCOME_PARTS',
        message: 'one outcome is a string and the other has parts',
        expected: 'both strings, or both with the same parts',
        got: `outcome_a ${typeof a === 'string' ? 'a string' : 'with parts'}, outcome_b ${typeof b === 'string' ? 'a string' : 'with parts'}`,
        fix: 'write both outcomes the same way',
      }),
    );
  }
  const usesSubject = names.includes('subject');
  if (usesSubject && item.subject === undefined) {
    slots({
      message: 'the template uses {subject} but the item gives no subject',
      expected: 'a subject field',
      got: 'nothing',
      fix: 'add subject, or write the subject into the template',
    });
  }
  if (!usesSubject && item.subject !== undefined) {
    problems.push(
      problemAt(parsed, [...at, 'subject'], {
        code: 'E_TOPICS_TEMPLATE_SLOTS',
        message: 'subject is given but the template has no {subject} slot',
        fix: 'add {subject} to the template or remove subject',
      }),
    );
  }
  return problems;
}

function outcomeValue(o: Outcome, part: string | undefined): string | undefined {
  if (typeof o === 'string') return part === undefined ? o : undefined;
  return part === undefined ? undefined : o[part];
}

/** Resolve one item written as a template. */
function fromTemplate(
  item: TopicItemInput,
  lang: string,
  at: (string | number)[],
  parsed: ParsedDataFile,
  provenance: TextProvenance,
): { item?: TopicItem; problems: Problem[] } {
  if (item.affirmative !== undefined || item.reverse !== undefined) {
    return {
      problems: [
        problemAt(parsed, at, {
          code: 'E_TOPICS_ITEM_FORM',
          message: 'an item is either a template or an explicit affirmative/reverse pair, not both',
          fix: 'remove template or remove affirmative and reverse',
        }),
      ],
    };
  }
  const missing = (['outcome_a', 'outcome_b'] as const).filter((k) => item[k] === undefined);
  if (missing.length > 0) {
    return {
      problems: missing.map((k) =>
        problemAt(parsed, [...at, k], {
          code: 'E_TOPICS_ITEM_FORM',
          message: `a template needs ${k}`,
          expected: 'the outcome term',
          got: 'nothing',
          fix: `add ${k}`,
        }),
      ),
    };
  }
  const parsedTemplate = parseTemplate(item.template!);
  if (!parsedTemplate.ok) {
    return {
      problems: [
        problemAt(parsed, [...at, 'template'], {
          code: 'E_TOPICS_TEMPLATE_SYNTAX',
          message: parsedTemplate.message,
          fix: 'braces are reserved for slots: {subject}, {outcome_a}, {outcome_b}',
        }),
      ],
    };
  }
  const problems = checkSlots(parsedTemplate.segments, item, at, parsed);
  const a = item.outcome_a!;
  const b = item.outcome_b!;
  if (sameOutcome(a, b)) {
    problems.push(
      problemAt(parsed, [...at, 'outcome_b'], {
        code: 'E_TOPICS_IDENTICAL_OUTCOMES',
        message: 'outcome_a and outcome_b are the same, so the reverse would equal the affirmative',
        fix: 'give the two compared outcomes',
      }),
    );
  }
  if (problems.length > 0) return { problems };
  const render = (first: Outcome, second: Outcome) =>
    fillTemplate(parsedTemplate.segments, (name) => {
      if (name === 'subject') return item.subject;
      const [head, part] = name.split('.');
      return outcomeValue(head === 'outcome_a' ? first : second, part);
    });
  const firstSlot = slotNames(parsedTemplate.segments).find((n) => n.startsWith('outcome_'))!;
  return {
    problems,
    item: {
      lang,
      form: 'template',
      template: item.template!,
      subject: item.subject ?? null,
      outcome_a: a,
      outcome_b: b,
      affirmative: render(a, b),
      reverse: render(b, a),
      affirmative_outcome_first: firstSlot.startsWith('outcome_a') ? 'a' : 'b',
      provenance,
    },
  };
}

/** Resolve one item written as an explicit affirmative/reverse pair. */
// eslint-disable-next-line max-lines-per-function -- not yet split by phase (see docs/DESIGN.md, layout)
function fromPair(
  item: TopicItemInput,
  lang: string,
  at: (string | number)[],
  parsed: ParsedDataFile,
  provenance: TextProvenance,
): { item?: TopicItem; problems: Problem[] } {
  const form = (message: string, fix: string, field: string[] = []) => ({
    problems: [problemAt(parsed, [...at, ...field], { code: 'E_TOPICS_ITEM_FORM', message, fix })],
  });
  if (item.affirmative === undefined || item.reverse === undefined) {
    return form(
      'an item needs a template, or both affirmative and reverse',
      'add template (with {outcome_a} and {outcome_b}) or the missing sentence',
    );
  }
  if (item.subject !== undefined)
    return form(
      'subject belongs to templates; an explicit pair already contains it',
      'remove subject',
      ['subject'],
    );
  const { outcome_a: a, outcome_b: b, affirmative: aff, reverse: rev } = item;
  if ((a === undefined) !== (b === undefined))
    return form('give both outcome_a and outcome_b, or neither', 'add the missing outcome', [
      a === undefined ? 'outcome_a' : 'outcome_b',
    ]);
  if ((a !== undefined && typeof a !== 'string') || (b !== undefined && typeof b !== 'string')) {
    return form(
      'multi-part outcomes need a template',
      'write the item as a template with {outcome_a.PART} slots',
      ['outcome_a'],
    );
  }
  const notSwap = (
    message: string,
    expected?: string,
    fix = 'make the reverse exactly the affirmative with its two outcome terms exchanged, or write the item as a template',
  ) => ({
    problems: [
      problemAt(parsed, [...at, 'reverse'], {
        code: 'E_TOPICS_NOT_SWAP',
        message,
        expected,
        got: rev,
        fix,
      }),
    ],
  });
  if (a !== undefined && b !== undefined) {
    if (a === b)
      return {
        problems: [
          problemAt(parsed, [...at, 'outcome_b'], {
            code: 'E_TOPICS_IDENTICAL_OUTCOMES',
            message: 'outcome_a and outcome_b are the same',
            fix: 'give the two compared outcomes',
          }),
        ],
      };
    const ex = exchangeTerms(aff, a, b);
    if (!ex.ok)
      return notSwap(
        `the reverse cannot be checked: ${ex.reason}`,
        undefined,
        'name outcome terms that occur exactly once in the affirmative',
      );
    if (ex.text !== rev)
      return notSwap(
        `the reverse differs from the affirmative by more than the swap of "${a}" and "${b}" (${firstDifference(ex.text, rev)})`,
        ex.text,
      );
    return {
      problems: [],
      item: {
        lang,
        form: 'explicit',
        template: null,
        subject: null,
        outcome_a: a,
        outcome_b: b,
        affirmative: aff,
        reverse: rev,
        affirmative_outcome_first: ex.aFirst ? 'a' : 'b',
        provenance,
      },
    };
  }
  const swap = findSwap(aff, rev);
  if (!swap) {
    return notSwap(
      aff === rev
        ? 'the reverse is identical to the affirmative'
        : `the reverse is not the affirmative with two terms exchanged (${firstDifference(aff, rev)})`,
      'the affirmative with its two outcome terms exchanged',
    );
  }
  return {
    problems: [],
    item: {
      lang,
      form: 'explicit',
      template: null,
      subject: null,
      outcome_a: swap.first,
      outcome_b: swap.second,
      affirmative: aff,
      reverse: rev,
      affirmative_outcome_first: 'a',
      provenance,
    },
  };
}

/** Resolve and check one item (topic × language) at `at` in the parsed file. */
export function resolveTopicItem(
  item: TopicItemInput,
  lang: string,
  at: (string | number)[],
  parsed: ParsedDataFile,
  defaultProvenance: TextProvenance,
): { item?: TopicItem; problems: Problem[] } {
  const provenance = item.provenance ?? defaultProvenance;
  return item.template !== undefined
    ? fromTemplate(item, lang, at, parsed, provenance)
    : fromPair(item, lang, at, parsed, provenance);
}
