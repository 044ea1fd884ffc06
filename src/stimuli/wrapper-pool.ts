/**
 * One language's wrapper pool: its types, and the checks of its response options, prefixes and
 * suffixes (one option per `option_values` entry, no label, id or text twice, every option label
 * in every suffix).
 */
import type { ParsedDataFile } from '../core/datafile.js';
import type { Problem } from '../core/errors.js';
import { problemAt } from './datafile.js';
import { missingLabels } from './labels.js';
import type { TextProvenance } from './provenance.js';
import type { PoolInput } from './wrappers-schema.js';

/** One prefix or suffix of a pool. */
export interface WrapperText {
  id: string;
  /** 0-based position in its list (what a draw returns). */
  index: number;
  text: string;
  provenance: TextProvenance;
}

/** A response option: its label in one language and its score. */
export interface ResponseOption {
  label: string;
  value: number;
}

/** The pool of one language. */
export interface WrapperPool {
  lang: string;
  name: string | null;
  /** Response-option labels with their scores, in declared order. */
  options: ResponseOption[];
  prefixes: WrapperText[];
  suffixes: WrapperText[];
  provenance: TextProvenance;
}

/** Where one pool's problems go, and the wrapper ids of the chain seen so far. */
interface PoolSite {
  parsed: ParsedDataFile;
  lang: string;
  /** The pool's path in the file: `pools.<lang>` or `add_to_pools.<lang>`. */
  at: (string | number)[];
  /** Every wrapper id seen so far, with where it is; checking a pool adds its own. */
  ids: Map<string, string>;
  problems: Problem[];
}

type Kind = 'prefixes' | 'suffixes';

/** Whitespace-insensitive form used to find duplicate texts. */
const norm = (s: string) => s.normalize('NFC').replace(/\s+/g, ' ').trim();

/** Push E_WRAPPERS_OPTION_COUNT unless the pool lists one option per option_values entry. */
function checkOptionCount(
  s: PoolSite,
  options: string[],
  values: number[],
  reference: string | undefined,
): void {
  if (options.length !== values.length) {
    s.problems.push(
      problemAt(s.parsed, [...s.at, 'options'], {
        code: 'E_WRAPPERS_OPTION_COUNT',
        message: `the ${s.lang} pool lists ${options.length} options, but option_values${reference ? ` (and the ${reference} pool)` : ''} ha${reference ? 've' : 's'} ${values.length}`,
        expected: `${values.length} options (one per option_values entry)`,
        got: `${options.length}: ${options.join(' / ')}`,
        fix: 'list the same response options, in the same order, in every language',
      }),
    );
  }
}

/** Push E_WRAPPERS_DUPLICATE for each option label listed a second time. */
function checkOptionLabels(s: PoolSite, options: string[]): void {
  const seenLabel = new Map<string, number>();
  options.forEach((o, i) => {
    const prev = seenLabel.get(norm(o));
    if (prev !== undefined)
      s.problems.push(
        problemAt(s.parsed, [...s.at, 'options', i], {
          code: 'E_WRAPPERS_DUPLICATE',
          message: `option label "${o}" is listed twice`,
          got: `options[${prev}] and options[${i}]`,
          fix: 'give each option its own label',
        }),
      );
    else seenLabel.set(norm(o), i);
  });
}

/** Push E_WRAPPERS_DUPLICATE if the id of `kind[i]` is used before in the chain; else record it. */
function checkId(s: PoolSite, kind: Kind, i: number, id: string): void {
  const prevId = s.ids.get(id);
  if (prevId !== undefined)
    s.problems.push(
      problemAt(s.parsed, [...s.at, kind, i, 'id'], {
        code: 'E_WRAPPERS_DUPLICATE',
        message: `wrapper id "${id}" is used twice`,
        got: `${prevId} and ${s.lang}.${kind}[${i}]`,
        fix: 'give every prefix and suffix its own id (trials record it)',
      }),
    );
  else s.ids.set(id, `${s.lang}.${kind}[${i}]`);
}

/**
 * Push E_WRAPPERS_DUPLICATE if the text of `kind[i]` is in `seen` (the texts before it, by index,
 * and the base pool's, by name); else record it.
 */
function checkRepeat(
  s: PoolSite,
  kind: Kind,
  i: number,
  text: string,
  seen: Map<string, number | string>,
): void {
  const prev = seen.get(norm(text));
  if (prev !== undefined) {
    const other = typeof prev === 'number' ? `${kind}[${prev}]` : prev;
    s.problems.push(
      problemAt(s.parsed, [...s.at, kind, i, 'text'], {
        code: 'E_WRAPPERS_DUPLICATE',
        message: `duplicate ${kind === 'prefixes' ? 'prefix' : 'suffix'}: same text as ${other}`,
        expected: `distinct ${kind}`,
        got: text,
        fix: `reword or remove one of ${other} and ${kind}[${i}] (a duplicate would double its draw probability)`,
      }),
    );
  } else seen.set(norm(text), i);
}

/** Push E_WRAPPERS_SUFFIX_MISSING_OPTION if suffix `i` does not list every option label. */
function checkSuffixLabels(
  s: PoolSite,
  i: number,
  w: { id: string; text: string },
  options: string[],
): void {
  const missing = missingLabels(w.text, options);
  if (missing.length > 0) {
    s.problems.push(
      problemAt(s.parsed, [...s.at, 'suffixes', i, 'text'], {
        code: 'E_WRAPPERS_SUFFIX_MISSING_OPTION',
        message: `suffix ${w.id} does not list ${missing.map((m) => `"${m}"`).join(', ')}`,
        expected: `every option: ${options.join(', ')}`,
        got: w.text,
        fix: `add ${missing.map((m) => `"${m}"`).join(', ')} to the suffix, spelled exactly as in options`,
      }),
    );
  }
}

/** Check the prefixes or suffixes of `pool` (none may repeat one of `existing`); index them from 0. */
function checkWrappers(
  s: PoolSite,
  kind: Kind,
  pool: PoolInput,
  existing: WrapperText[],
): WrapperText[] {
  const seen = new Map<string, number | string>(
    existing.map((w) => [norm(w.text), `${w.id} of the base pool`]),
  );
  return pool[kind].map((w, i) => {
    checkId(s, kind, i, w.id);
    checkRepeat(s, kind, i, w.text, seen);
    if (kind === 'suffixes') checkSuffixLabels(s, i, w, pool.options);
    return { id: w.id, index: i, text: w.text, provenance: w.provenance ?? pool.provenance };
  });
}

/**
 * Check the pool of one language against `values` (option_values; `reference`, the first pool's
 * language, is named in option-count messages) and, for texts added to a base pool, against that
 * pool's `existing` prefixes and suffixes. Problems go to `s.problems`.
 */
export function checkPool(
  s: PoolSite,
  pool: PoolInput,
  values: number[],
  reference: string | undefined,
  existing: { prefixes: WrapperText[]; suffixes: WrapperText[] } = { prefixes: [], suffixes: [] },
): WrapperPool {
  checkOptionCount(s, pool.options, values, reference);
  checkOptionLabels(s, pool.options);
  return {
    lang: s.lang,
    name: pool.name ?? null,
    options: pool.options.map((label, i) => ({ label, value: values[i] ?? Number.NaN })),
    prefixes: checkWrappers(s, 'prefixes', pool, existing.prefixes),
    suffixes: checkWrappers(s, 'suffixes', pool, existing.suffixes),
    provenance: pool.provenance,
  };
}
