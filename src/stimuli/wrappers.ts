/**
 * Loading wrapper pools: schema, then the rules (every suffix lists every option label, no
 * duplicate prefixes, suffixes, labels or ids, the same number of options in every language as
 * `option_values`), and `extends`, which adds languages to a base file and inherits its
 * `option_values`.
 */
import path from 'node:path';
import type { ParsedDataFile } from '../core/datafile.js';
import { StimkitError, type Problem } from '../core/errors.js';
import {
  loadExtendsChain,
  problemAt,
  throwIfProblems,
  type InputFile,
  type LoadedFile,
} from './datafile.js';
import { missingLabels } from './labels.js';
import type { TextProvenance } from './provenance.js';
import {
  WRAPPERS_FORMAT,
  WRAPPERS_VERSION,
  WrappersFileInput,
  type PoolInput,
} from './wrappers-schema.js';

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

/** Loaded, validated wrapper pools (with the `extends` chain merged). */
export interface WrapperPools {
  format: typeof WRAPPERS_FORMAT;
  version: typeof WRAPPERS_VERSION;
  option_values: number[];
  /** Every language, base file first. */
  languages: string[];
  pools: Record<string, WrapperPool>;
  /** The files read, base first, with the sha256 of their bytes. */
  inputs: InputFile[];
}

/** Whitespace-insensitive form used to find duplicate texts. */
const norm = (s: string) => s.normalize('NFC').replace(/\s+/g, ' ').trim();

// eslint-disable-next-line max-lines-per-function -- not yet split by phase (see docs/DESIGN.md, layout)
function checkPool(
  parsed: ParsedDataFile,
  lang: string,
  pool: PoolInput,
  values: number[],
  reference: string | undefined,
  ids: Map<string, string>,
  problems: Problem[],
  at: (string | number)[] = ['pools', lang],
  existing: { prefixes: WrapperText[]; suffixes: WrapperText[] } = { prefixes: [], suffixes: [] },
): WrapperPool {
  if (pool.options.length !== values.length) {
    problems.push(
      problemAt(parsed, [...at, 'options'], {
        code: 'E_WRAPPERS_OPTION_COUNT',
        message: `the ${lang} pool lists ${pool.options.length} options, but option_values${reference ? ` (and the ${reference} pool)` : ''} ha${reference ? 've' : 's'} ${values.length}`,
        expected: `${values.length} options (one per option_values entry)`,
        got: `${pool.options.length}: ${pool.options.join(' / ')}`,
        fix: 'list the same response options, in the same order, in every language',
      }),
    );
  }
  const seenLabel = new Map<string, number>();
  pool.options.forEach((o, i) => {
    const prev = seenLabel.get(norm(o));
    if (prev !== undefined)
      problems.push(
        problemAt(parsed, [...at, 'options', i], {
          code: 'E_WRAPPERS_DUPLICATE',
          message: `option label "${o}" is listed twice`,
          got: `options[${prev}] and options[${i}]`,
          fix: 'give each option its own label',
        }),
      );
    else seenLabel.set(norm(o), i);
  });
  const wrappers = (kind: 'prefixes' | 'suffixes'): WrapperText[] => {
    const seen = new Map<string, number | string>(
      existing[kind].map((w) => [norm(w.text), `${w.id} of the base pool`]),
    );
    return pool[kind].map((w, i) => {
      const prevId = ids.get(w.id);
      if (prevId !== undefined)
        problems.push(
          problemAt(parsed, [...at, kind, i, 'id'], {
            code: 'E_WRAPPERS_DUPLICATE',
            message: `wrapper id "${w.id}" is used twice`,
            got: `${prevId} and ${lang}.${kind}[${i}]`,
            fix: 'give every prefix and suffix its own id (trials record it)',
          }),
        );
      else ids.set(w.id, `${lang}.${kind}[${i}]`);
      const prev = seen.get(norm(w.text));
      if (prev !== undefined) {
        const other = typeof prev === 'number' ? `${kind}[${prev}]` : prev;
        problems.push(
          problemAt(parsed, [...at, kind, i, 'text'], {
            code: 'E_WRAPPERS_DUPLICATE',
            message: `duplicate ${kind === 'prefixes' ? 'prefix' : 'suffix'}: same text as ${other}`,
            expected: `distinct ${kind}`,
            got: w.text,
            fix: `reword or remove one of ${other} and ${kind}[${i}] (a duplicate would double its draw probability)`,
          }),
        );
      } else seen.set(norm(w.text), i);
      if (kind === 'suffixes') {
        const missing = missingLabels(w.text, pool.options);
        if (missing.length > 0) {
          problems.push(
            problemAt(parsed, [...at, kind, i, 'text'], {
              code: 'E_WRAPPERS_SUFFIX_MISSING_OPTION',
              message: `suffix ${w.id} does not list ${missing.map((m) => `"${m}"`).join(', ')}`,
              expected: `every option: ${pool.options.join(', ')}`,
              got: w.text,
              fix: `add ${missing.map((m) => `"${m}"`).join(', ')} to the suffix, spelled exactly as in options`,
            }),
          );
        }
      }
      return { id: w.id, index: i, text: w.text, provenance: w.provenance ?? pool.provenance };
    });
  };
  return {
    lang,
    name: pool.name ?? null,
    options: pool.options.map((label, i) => ({ label, value: values[i] ?? Number.NaN })),
    prefixes: wrappers('prefixes'),
    suffixes: wrappers('suffixes'),
    provenance: pool.provenance,
  };
}

// eslint-disable-next-line max-lines-per-function -- not yet split by phase (see docs/DESIGN.md, layout)
function build(
  { data, parsed, input }: LoadedFile<WrappersFileInput>,
  base: WrapperPools | null,
): WrapperPools {
  const problems: Problem[] = [];
  let values = base?.option_values ?? [];
  if (base) {
    if (data.option_values !== undefined) {
      problems.push(
        problemAt(parsed, ['option_values'], {
          code: 'E_WRAPPERS_EXTENDS',
          message: `a file that extends ${path.basename(data.extends!)} inherits option_values; it cannot set it`,
          fix: 'remove option_values',
        }),
      );
    }
  } else if (data.option_values === undefined) {
    problems.push(
      problemAt(parsed, [], {
        code: 'E_WRAPPERS_MISSING_FIELD',
        field: 'option_values',
        message: 'option_values is required (unless the file extends another)',
        fix: 'add option_values: [2, 1, -1, -2]',
      }),
    );
  } else {
    values = data.option_values;
    if (new Set(values).size !== values.length)
      problems.push(
        problemAt(parsed, ['option_values'], {
          code: 'E_WRAPPERS_DUPLICATE',
          message: 'option_values repeats a value, so two options would score the same',
          got: JSON.stringify(values),
          fix: 'give each option position its own value',
        }),
      );
  }
  const ids = new Map<string, string>();
  for (const p of Object.values(base?.pools ?? {}))
    for (const w of [...p.prefixes, ...p.suffixes])
      ids.set(w.id, `${p.lang} (in ${path.basename(base!.inputs[base!.inputs.length - 1]!.file)})`);
  const pools: Record<string, WrapperPool> = { ...base?.pools };
  // The first language (of the base, or of this file) is named in option-count messages.
  let first = base?.languages[0];
  for (const [lang, pool] of Object.entries(data.pools)) {
    if (base?.languages.includes(lang)) {
      problems.push(
        problemAt(parsed, ['pools', lang], {
          code: 'E_WRAPPERS_EXTENDS',
          message: `language ${lang} is already in the base file`,
          fix: 'an extending file adds new languages only',
        }),
      );
      continue;
    }
    pools[lang] = checkPool(parsed, lang, pool, values, first, ids, problems);
    first ??= lang;
  }
  for (const [lang, add] of Object.entries(data.add_to_pools ?? {})) {
    const prev = base?.pools[lang];
    if (!prev) {
      problems.push(
        problemAt(parsed, ['add_to_pools', lang], {
          code: 'E_WRAPPERS_EXTENDS',
          message: base
            ? `the base file has no ${lang} pool to add to`
            : 'add_to_pools needs a base file (extends)',
          expected: base ? `one of ${base.languages.join(', ')}` : 'extends: <base wrappers file>',
          got: lang,
          fix: base
            ? `add a whole ${lang} pool under pools instead`
            : 'add extends, or put the texts in pools',
        }),
      );
      continue;
    }
    const labels = prev.options.map((o) => o.label);
    const merged = checkPool(
      parsed,
      lang,
      {
        options: labels,
        prefixes: add.prefixes,
        suffixes: add.suffixes,
        provenance: add.provenance,
      },
      prev.options.map((o) => o.value),
      undefined,
      ids,
      problems,
      ['add_to_pools', lang],
      { prefixes: prev.prefixes, suffixes: prev.suffixes },
    );
    const shift = (list: WrapperText[], offset: number) =>
      list.map((w) => ({ ...w, index: w.index + offset }));
    pools[lang] = {
      ...prev,
      prefixes: [...prev.prefixes, ...shift(merged.prefixes, prev.prefixes.length)],
      suffixes: [...prev.suffixes, ...shift(merged.suffixes, prev.suffixes.length)],
    };
  }
  if (Object.keys(data.pools).length === 0 && Object.keys(data.add_to_pools ?? {}).length === 0) {
    problems.push(
      problemAt(parsed, ['pools'], {
        code: 'E_WRAPPERS_MISSING_FIELD',
        message: 'no pools',
        fix: base
          ? 'add a pool for a new language, or texts under add_to_pools'
          : 'add a pool for at least one language',
      }),
    );
  }
  throwIfProblems('E_WRAPPERS_INVALID', parsed.file, 'wrappers file', problems);
  return {
    format: WRAPPERS_FORMAT,
    version: WRAPPERS_VERSION,
    option_values: values,
    languages: Object.keys(pools),
    pools,
    inputs: [...(base?.inputs ?? []), input],
  };
}

/**
 * Load a wrapper-pools file and validate it. Throws a StimkitError listing every problem (codes
 * `E_WRAPPERS_*`) with file, line and field.
 *
 * @example
 * const pools = await loadWrapperPools('manifests/wrappers.yaml');
 * pools.pools.zh.options.map((o) => o.label); // ['强烈同意', '同意', '不同意', '强烈不同意']
 */
export async function loadWrapperPools(file: string): Promise<WrapperPools> {
  return loadExtendsChain(file, WrappersFileInput, 'E_WRAPPERS', build);
}

/** The pool of `lang`, or a StimkitError naming the languages there are. */
export function poolFor(pools: WrapperPools, lang: string): WrapperPool {
  const pool = pools.pools[lang];
  if (!pool) {
    throw StimkitError.fromProblem({
      code: 'E_WRAPPERS_NO_POOL',
      file: pools.inputs[pools.inputs.length - 1]?.file,
      field: `pools.${lang}`,
      message: `no wrapper pool for language ${lang}`,
      expected: `one of ${pools.languages.join(', ')}`,
      got: lang,
      fix: `add a ${lang} pool (a file that extends this one is enough)`,
    });
  }
  return pool;
}

/** The response options (label and score) of `lang`, for parsing answers. */
export function responseOptions(pools: WrapperPools, lang: string): ResponseOption[] {
  return poolFor(pools, lang).options;
}
