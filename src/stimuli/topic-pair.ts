/**
 * One topic item written as an explicit affirmative/reverse pair: its form checked (both
 * sentences, no subject, both or neither outcome named, no multi-part outcomes), then the swap:
 * with named outcomes, the reverse must be the affirmative with them exchanged; without, the two
 * exchanged terms are found. The first problem ends the item.
 */
import type { ParsedDataFile } from '../core/datafile.js';
import type { Problem } from '../core/errors.js';
import { problemAt } from './datafile.js';
import type { TextProvenance } from './provenance.js';
import { exchangeTerms, findSwap, firstDifference } from './swap.js';
import type { ItemAt, TopicItem } from './topic-item.js';
import type { TopicItemInput } from './topics-schema.js';

/** The two sentences of a well-formed pair and, when the item names them, its two outcomes. */
interface PairText {
  affirmative: string;
  reverse: string;
  named?: { a: string; b: string };
}

/** The outcomes of a pair that differs by their swap, and which comes first in the affirmative. */
interface Swapped {
  a: string;
  b: string;
  first: 'a' | 'b';
}

/** A phase's result: its value, or the problem that ends the item. */
type Checked<T> = { ok: true; value: T } | { ok: false; problem: Problem };

/** The form of a pair: both sentences, no subject, both or neither outcome, each a string. */
function pairForm({ parsed, at }: ItemAt, item: TopicItemInput): Checked<PairText> {
  const form = (message: string, fix: string, field: string[] = []) => ({
    ok: false as const,
    problem: problemAt(parsed, [...at, ...field], { code: 'E_TOPICS_ITEM_FORM', message, fix }),
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
  const { outcome_a: a, outcome_b: b, affirmative, reverse } = item;
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
  const named = a !== undefined && b !== undefined ? { a, b } : undefined;
  return { ok: true, value: { affirmative, reverse, named } };
}

/** A problem at the reverse: it is not the affirmative with the two outcome terms exchanged. */
function notSwap(
  { parsed, at }: ItemAt,
  reverse: string,
  message: string,
  expected?: string,
  fix = 'make the reverse exactly the affirmative with its two outcome terms exchanged, or write the item as a template',
): Checked<never> {
  return {
    ok: false,
    problem: problemAt(parsed, [...at, 'reverse'], {
      code: 'E_TOPICS_NOT_SWAP',
      message,
      expected,
      got: reverse,
      fix,
    }),
  };
}

/** A pair with named outcomes: distinct, and the reverse is the affirmative with them exchanged. */
function namedSwap(
  where: ItemAt,
  { affirmative, reverse }: PairText,
  { a, b }: { a: string; b: string },
): Checked<Swapped> {
  if (a === b)
    return {
      ok: false,
      problem: problemAt(where.parsed, [...where.at, 'outcome_b'], {
        code: 'E_TOPICS_IDENTICAL_OUTCOMES',
        message: 'outcome_a and outcome_b are the same',
        fix: 'give the two compared outcomes',
      }),
    };
  const ex = exchangeTerms(affirmative, a, b);
  if (!ex.ok)
    return notSwap(
      where,
      reverse,
      `the reverse cannot be checked: ${ex.reason}`,
      undefined,
      'name outcome terms that occur exactly once in the affirmative',
    );
  if (ex.text !== reverse)
    return notSwap(
      where,
      reverse,
      `the reverse differs from the affirmative by more than the swap of "${a}" and "${b}" (${firstDifference(ex.text, reverse)})`,
      ex.text,
    );
  return { ok: true, value: { a, b, first: ex.aFirst ? 'a' : 'b' } };
}

/** A pair without named outcomes: the two terms exchanged between its sentences, first as `a`. */
function inferredSwap(where: ItemAt, { affirmative, reverse }: PairText): Checked<Swapped> {
  const swap = findSwap(affirmative, reverse);
  if (!swap) {
    return notSwap(
      where,
      reverse,
      affirmative === reverse
        ? 'the reverse is identical to the affirmative'
        : `the reverse is not the affirmative with two terms exchanged (${firstDifference(affirmative, reverse)})`,
      'the affirmative with its two outcome terms exchanged',
    );
  }
  return { ok: true, value: { a: swap.first, b: swap.second, first: 'a' } };
}

/** Resolve one item written as an explicit affirmative/reverse pair at `at` in the parsed file. */
export function fromPair(
  item: TopicItemInput,
  lang: string,
  at: (string | number)[],
  parsed: ParsedDataFile,
  provenance: TextProvenance,
): { item?: TopicItem; problems: Problem[] } {
  const where = { parsed, at };
  const form = pairForm(where, item);
  if (!form.ok) return { problems: [form.problem] };
  const pair = form.value;
  const swap = pair.named ? namedSwap(where, pair, pair.named) : inferredSwap(where, pair);
  if (!swap.ok) return { problems: [swap.problem] };
  const { a, b, first } = swap.value;
  return {
    problems: [],
    item: {
      lang,
      form: 'explicit',
      template: null,
      subject: null,
      outcome_a: a,
      outcome_b: b,
      affirmative: pair.affirmative,
      reverse: pair.reverse,
      affirmative_outcome_first: first,
      provenance,
    },
  };
}
