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
  extendsList,
  extendsNames,
  loadExtendsChain,
  problemAt,
  throwIfProblems,
  type InputFile,
  type LoadedFile,
} from './datafile.js';
import {
  checkPool,
  type ResponseOption,
  type WrapperPool,
  type WrapperText,
} from './wrapper-pool.js';
import { WRAPPERS_FORMAT, WRAPPERS_VERSION, WrappersFileInput } from './wrappers-schema.js';

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

/** The file being folded onto its base, and the problems found so far. */
interface Fold {
  parsed: ParsedDataFile;
  data: WrappersFileInput;
  problems: Problem[];
}

/** The option_values of the chain: the base's (an extending file may not set them) or its own. */
function optionValues({ parsed, data, problems }: Fold, base: WrapperPools | null): number[] {
  if (base) {
    if (data.option_values !== undefined) {
      problems.push(
        problemAt(parsed, ['option_values'], {
          code: 'E_WRAPPERS_EXTENDS',
          message: `a file that extends ${extendsNames(data.extends)} inherits option_values; it cannot set it`,
          fix: 'remove option_values',
        }),
      );
    }
    return base.option_values;
  }
  if (data.option_values === undefined) {
    problems.push(
      problemAt(parsed, [], {
        code: 'E_WRAPPERS_MISSING_FIELD',
        field: 'option_values',
        message: 'option_values is required (unless the file extends another)',
        fix: 'add option_values: [2, 1, -1, -2]',
      }),
    );
    return [];
  }
  const values = data.option_values;
  if (new Set(values).size !== values.length)
    problems.push(
      problemAt(parsed, ['option_values'], {
        code: 'E_WRAPPERS_DUPLICATE',
        message: 'option_values repeats a value, so two options would score the same',
        got: JSON.stringify(values),
        fix: 'give each option position its own value',
      }),
    );
  return values;
}

/** The ids of the base's prefixes and suffixes, each with where it is (its language and file). */
function baseIds(base: WrapperPools | null): Map<string, string> {
  const ids = new Map<string, string>();
  if (!base) return ids;
  const file = path.basename(base.inputs[base.inputs.length - 1]!.file);
  for (const p of Object.values(base.pools))
    for (const w of [...p.prefixes, ...p.suffixes]) ids.set(w.id, `${p.lang} (in ${file})`);
  return ids;
}

/** Check the pools of the languages this file adds (never a base language); return them. */
function newPools(
  f: Fold,
  base: WrapperPools | null,
  values: number[],
  ids: Map<string, string>,
): Record<string, WrapperPool> {
  const pools: Record<string, WrapperPool> = {};
  // The first language (of the base, or of this file) is named in option-count messages.
  let first = base?.languages[0];
  for (const [lang, pool] of Object.entries(f.data.pools)) {
    if (base?.languages.includes(lang)) {
      f.problems.push(
        problemAt(f.parsed, ['pools', lang], {
          code: 'E_WRAPPERS_EXTENDS',
          message: `language ${lang} is already in the base file`,
          fix: 'an extending file adds new languages only',
        }),
      );
      continue;
    }
    const site = { parsed: f.parsed, lang, at: ['pools', lang], ids, problems: f.problems };
    pools[lang] = checkPool(site, pool, values, first);
    first ??= lang;
  }
  return pools;
}

/** Push E_WRAPPERS_EXTENDS: add_to_pools names a pool the base does not have (or has no base). */
function noPoolToAddTo({ parsed, problems }: Fold, base: WrapperPools | null, lang: string): void {
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
}

/**
 * Base pool `prev` with the texts add_to_pools gives it, checked against the pool and numbered
 * after its own.
 */
function grownPool(
  f: Fold,
  lang: string,
  add: NonNullable<WrappersFileInput['add_to_pools']>[string],
  prev: WrapperPool,
  ids: Map<string, string>,
): WrapperPool {
  const site = { parsed: f.parsed, lang, at: ['add_to_pools', lang], ids, problems: f.problems };
  const merged = checkPool(
    site,
    {
      options: prev.options.map((o) => o.label),
      prefixes: add.prefixes,
      suffixes: add.suffixes,
      provenance: add.provenance,
    },
    prev.options.map((o) => o.value),
    undefined,
    { prefixes: prev.prefixes, suffixes: prev.suffixes },
  );
  const shift = (list: WrapperText[], offset: number) =>
    list.map((w) => ({ ...w, index: w.index + offset }));
  return {
    ...prev,
    prefixes: [...prev.prefixes, ...shift(merged.prefixes, prev.prefixes.length)],
    suffixes: [...prev.suffixes, ...shift(merged.suffixes, prev.suffixes.length)],
  };
}

/** The base pools that add_to_pools adds texts to, grown; a problem for each it cannot add to. */
function grownPools(
  f: Fold,
  base: WrapperPools | null,
  ids: Map<string, string>,
): Record<string, WrapperPool> {
  const pools: Record<string, WrapperPool> = {};
  for (const [lang, add] of Object.entries(f.data.add_to_pools ?? {})) {
    const prev = base?.pools[lang];
    if (prev) pools[lang] = grownPool(f, lang, add, prev, ids);
    else noPoolToAddTo(f, base, lang);
  }
  return pools;
}

/**
 * Push E_WRAPPERS_MISSING_FIELD if the file has neither pools nor add_to_pools (unless it combines
 * files: `extends` lists several).
 */
function checkSomePools({ parsed, data, problems }: Fold, base: WrapperPools | null): void {
  if (
    extendsList(data.extends).length < 2 &&
    Object.keys(data.pools).length === 0 &&
    Object.keys(data.add_to_pools ?? {}).length === 0
  ) {
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
}

/**
 * Fold one file onto its base (null for a base file): a base file sets option_values and pools;
 * an extending file adds pools for new languages and texts to the base's pools (add_to_pools).
 */
function build(
  { data, parsed, input }: LoadedFile<WrappersFileInput>,
  base: WrapperPools | null,
): WrapperPools {
  const f: Fold = { parsed, data, problems: [] };
  const values = optionValues(f, base);
  const ids = baseIds(base);
  const added = newPools(f, base, values, ids);
  const grown = grownPools(f, base, ids);
  // Base languages first (grown pools keep their place), then the added ones.
  const pools: Record<string, WrapperPool> = { ...base?.pools, ...added, ...grown };
  checkSomePools(f, base);
  throwIfProblems('E_WRAPPERS_INVALID', parsed.file, 'wrappers file', f.problems);
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
