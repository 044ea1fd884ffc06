/**
 * The slots of a topic template, checked against its outcomes and subject: only known slots, both
 * outcome slots once each (or, for multi-part outcomes, slots of both outcomes naming declared
 * parts, every part used), outcomes written the same way, and `{subject}` exactly when a subject
 * is given. Each phase returns its problems; `checkSlots` reports them in that order.
 */
import type { ParsedDataFile } from '../core/datafile.js';
import type { Problem } from '../core/errors.js';
import { problemAt } from './datafile.js';
import type { ItemAt } from './topic-item.js';
import { slotNames, type Segment } from './template.js';
import type { Outcome, TopicItemInput } from './topics-schema.js';

const WHOLE = new Set(['outcome_a', 'outcome_b']);

/** What a slot problem says (its code and place are added by `slotsProblem` or `partsProblem`). */
type SlotsText = Omit<Problem, 'severity' | 'file' | 'line' | 'field' | 'code'>;

/** A template-slot problem, reported at the item's template. */
function slotsProblem({ parsed, at }: ItemAt, p: SlotsText): Problem {
  return problemAt(parsed, [...at, 'template'], { ...p, code: 'E_TOPICS_TEMPLATE_SLOTS' });
}

/** An outcome-parts problem, reported at the item's `field`. */
function partsProblem(
  { parsed, at }: ItemAt,
  field: 'outcome_a' | 'outcome_b',
  p: SlotsText,
): Problem {
  return problemAt(parsed, [...at, field], { code: 'E_TOPICS_OUTCOME_PARTS', ...p });
}

/** The outcome slots among `names`, for a message (`{outcome_a}, {outcome_b.verb}`). */
function describeSlots(names: string[]): string {
  const outcome = names.filter((n) => n.startsWith('outcome_'));
  return outcome.length === 0 ? 'no outcome slot' : outcome.map((n) => `{${n}}`).join(', ');
}

/** Whether `name` is a slot a topic template may have. */
function isKnownSlot(name: string): boolean {
  const [head, part] = name.split('.');
  return name === 'subject' || WHOLE.has(name) || (part !== undefined && WHOLE.has(head!));
}

/** One problem per slot that is neither `{subject}` nor an outcome slot, in template order. */
function unknownSlots(where: ItemAt, names: string[]): Problem[] {
  return names
    .filter((n) => !isKnownSlot(n))
    .map((n) =>
      slotsProblem(where, {
        message: `unknown slot {${n}}`,
        expected: '{subject}, {outcome_a}, {outcome_b} or {outcome_a.PART}/{outcome_b.PART}',
        got: `{${n}}`,
        fix: 'correct the slot name',
      }),
    );
}

/** The outcome slots of a template whose outcomes are both strings: each whole slot once. */
function stringOutcomeSlots(where: ItemAt, names: string[]): Problem[] {
  const ca = names.filter((n) => n === 'outcome_a').length;
  const cb = names.filter((n) => n === 'outcome_b').length;
  const parts = names.filter((n) => /^outcome_[ab]\./.test(n));
  if (ca === 1 && cb === 1 && parts.length === 0) return [];
  return [
    slotsProblem(where, {
      message:
        'the template must contain both outcome slots, once each, so that the reverse is the swap',
      expected: '{outcome_a} once and {outcome_b} once',
      got: describeSlots(names),
      fix: 'put {outcome_a} where the affirmative names its first outcome and {outcome_b} where it names the other',
    }),
  ];
}

/**
 * The part slots of a template whose outcomes have the same parts `parts`: each outcome appears
 * (through at least one of its parts), no part slot twice, only declared parts, no whole-outcome
 * slot (it has no single text), and every part used.
 */
function partSlots(where: ItemAt, names: string[], parts: string[]): Problem[] {
  const partNames = names.filter((n) => /^outcome_[ab]\./.test(n));
  const has = (o: string) => partNames.some((n) => n.startsWith(`${o}.`));
  const repeated = partNames.filter((n, i) => partNames.indexOf(n) !== i);
  const unknown = partNames.filter((n) => !parts.includes(n.split('.')[1]!));
  const unusedParts = parts.filter((k) => !partNames.some((n) => n.endsWith(`.${k}`)));
  const whole = names.filter((n) => WHOLE.has(n));
  if (
    !has('outcome_a') ||
    !has('outcome_b') ||
    repeated.length > 0 ||
    unknown.length > 0 ||
    whole.length > 0
  ) {
    return [
      slotsProblem(where, {
        message:
          'a template with multi-part outcomes needs slots of both outcomes ({outcome_a.PART} and {outcome_b.PART}), each slot once, naming declared parts',
        expected: `slots among ${parts.flatMap((k) => [`{outcome_a.${k}}`, `{outcome_b.${k}}`]).join(', ')}, with both outcomes present`,
        got: describeSlots(names),
        fix: 'put an {outcome_a.PART} slot where the affirmative names its first outcome and an {outcome_b.PART} slot where it names the other',
      }),
    ];
  }
  if (unusedParts.length === 0) return [];
  return [
    partsProblem(where, 'outcome_a', {
      message: `part(s) ${unusedParts.join(', ')} are declared but no slot uses them`,
      expected: `slots using ${unusedParts.map((k) => `{outcome_a.${k}}`).join(', ')} or {outcome_b.…}`,
      got: describeSlots(names),
      fix: 'use the part in the template or remove it from both outcomes',
    }),
  ];
}

/** The outcome slots of a template whose outcomes both have parts: the same parts, then the slots. */
function partOutcomeSlots(
  where: ItemAt,
  names: string[],
  a: Record<string, string>,
  b: Record<string, string>,
): Problem[] {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  if (ka.join() === kb.join()) return partSlots(where, names, ka);
  return [
    partsProblem(where, 'outcome_b', {
      message:
        'outcome_a and outcome_b must have the same parts, or the swap would leave a part behind',
      expected: ka.join(', '),
      got: kb.join(', '),
      fix: 'give both outcomes the same part names',
    }),
  ];
}

/** The outcome slots, by how the outcomes are written: both strings, both with parts, or a mix. */
function outcomeSlots(where: ItemAt, names: string[], a: Outcome, b: Outcome): Problem[] {
  if (typeof a === 'string' && typeof b === 'string') return stringOutcomeSlots(where, names);
  if (typeof a === 'object' && typeof b === 'object') return partOutcomeSlots(where, names, a, b);
  return [
    partsProblem(where, 'outcome_b', {
      message: 'one outcome is a string and the other has parts',
      expected: 'both strings, or both with the same parts',
      got: `outcome_a ${typeof a === 'string' ? 'a string' : 'with parts'}, outcome_b ${typeof b === 'string' ? 'a string' : 'with parts'}`,
      fix: 'write both outcomes the same way',
    }),
  ];
}

/** `{subject}` without a subject, or a subject without `{subject}`. */
function subjectSlot(where: ItemAt, names: string[], subject: string | undefined): Problem[] {
  const usesSubject = names.includes('subject');
  if (usesSubject && subject === undefined) {
    return [
      slotsProblem(where, {
        message: 'the template uses {subject} but the item gives no subject',
        expected: 'a subject field',
        got: 'nothing',
        fix: 'add subject, or write the subject into the template',
      }),
    ];
  }
  if (!usesSubject && subject !== undefined) {
    return [
      problemAt(where.parsed, [...where.at, 'subject'], {
        code: 'E_TOPICS_TEMPLATE_SLOTS',
        message: 'subject is given but the template has no {subject} slot',
        fix: 'add {subject} to the template or remove subject',
      }),
    ];
  }
  return [];
}

/**
 * Check the slots of a template against its outcomes and subject (both outcomes given) at `at`
 * in the parsed file; return the problems: unknown slots, outcome slots, then the subject slot.
 */
export function checkSlots(
  segments: Segment[],
  item: TopicItemInput,
  at: (string | number)[],
  parsed: ParsedDataFile,
): Problem[] {
  const where = { parsed, at };
  const names = slotNames(segments);
  return [
    ...unknownSlots(where, names),
    ...outcomeSlots(where, names, item.outcome_a!, item.outcome_b!),
    ...subjectSlot(where, names, item.subject),
  ];
}
