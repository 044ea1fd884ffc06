/**
 * One topic in one language, from its written form (a template or an explicit sentence pair) to
 * its two rendered sentences, with every rule checked: both outcome slots once each, a subject
 * slot only with a subject, parts that match, distinct outcomes, and, for explicit pairs, that
 * the reverse is the affirmative with the outcomes exchanged and nothing else. A template's slots
 * are checked in `topic-slots.ts`, an explicit pair in `topic-pair.ts`.
 */
import type { ParsedDataFile } from '../core/datafile.js';
import type { Problem } from '../core/errors.js';
import { problemAt } from './datafile.js';
import type { TextProvenance } from './provenance.js';
import { fillTemplate, parseTemplate, slotNames } from './template.js';
import { fromPair } from './topic-pair.js';
import { checkSlots } from './topic-slots.js';
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

/** Where an item's problems are reported: the parsed file and the item's path in it. */
export interface ItemAt {
  parsed: ParsedDataFile;
  at: (string | number)[];
}

function sameOutcome(a: Outcome, b: Outcome): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
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
