/**
 * Reading hand-written data files (YAML or JSON) against a zod schema, reporting every problem
 * at once with its line, field path, expected and got.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Yaml from 'yaml';
import type { Document, LineCounter } from 'yaml';
import type { z } from 'zod';
import { describeValue, StimkitError, type Problem } from './errors.js';
import { readTextFile } from './fsio.js';
import { closest } from './suggest.js';

/** A parsed data file: its text, the YAML document (for line lookups) and the plain value. */
export interface ParsedDataFile {
  file: string;
  text: string;
  doc: Document;
  lines: LineCounter;
  value: unknown;
}

let yamlModule: typeof Yaml | undefined;

/**
 * The yaml package, loaded on first use (its CommonJS build, the copy its ES module entry also
 * loads): a run that reads only stimkit's own JSON files, which `JSON.parse` reads first (e.g. a
 * corpus lock), does not spend the ~50 ms of loading it.
 */
export function yaml(): typeof Yaml {
  return (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml);
}

/** Syntax errors reported at most (the rest are counted). */
const MAX_SYNTAX_ERRORS = 10;

/** Parse YAML or JSON text (JSON is YAML), collecting syntax errors with their lines. */
export function parseDataText(file: string, text: string, code: string): ParsedDataFile {
  const { LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: lines,
    prettyErrors: true,
    uniqueKeys: true,
    strict: true,
  });
  if (doc.errors.length > 0) {
    const problems: Problem[] = doc.errors.slice(0, MAX_SYNTAX_ERRORS).map((e) => ({
      code,
      severity: 'error',
      file,
      line: e.linePos?.[0]?.line,
      message: `not valid YAML/JSON: ${e.message.split('\n')[0]!.slice(0, 200)}`,
      fix: 'fix the syntax at that line',
    }));
    const more = doc.errors.length - problems.length;
    const count = `${doc.errors.length} syntax error(s)${more > 0 ? `, the first ${problems.length} shown` : ''}`;
    throw new StimkitError(code, `${file}: ${count}`, {
      fix: 'correct the syntax at the lines listed below',
      problems,
    });
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw StimkitError.fromProblem(
      {
        code,
        file,
        message: `cannot read the YAML: ${(err as Error).message}`,
        fix: 'expand the aliases (*name) by hand; stimkit allows at most 100',
      },
      err,
    );
  }
  return { file, text, doc, lines, value };
}

/** The 1-based line of the node at `pathParts` (or of its nearest existing parent). */
export function lineOf(
  parsed: ParsedDataFile,
  pathParts: ReadonlyArray<PropertyKey>,
): number | undefined {
  for (let n = pathParts.length; n >= 0; n--) {
    const node = parsed.doc.getIn(pathParts.slice(0, n) as unknown[], true);
    if (yaml().isNode(node) && node.range) return parsed.lines.linePos(node.range[0]).line;
  }
  return undefined;
}

/**
 * The line of the key that ends `pathParts` (`languages.kk_KZ` → the line of `kk_KZ:`), where
 * `lineOf` gives its value's (the next line for a nested mapping); undefined when not found.
 */
function keyLineOf(
  parsed: ParsedDataFile,
  pathParts: ReadonlyArray<PropertyKey>,
): number | undefined {
  const key = pathParts[pathParts.length - 1];
  const parent =
    pathParts.length > 1
      ? parsed.doc.getIn(pathParts.slice(0, -1) as unknown[], true)
      : parsed.doc.contents;
  const { isMap, isNode, isScalar } = yaml();
  if (key === undefined || !isMap(parent)) return undefined;
  const pair = parent.items.find((it) => isScalar(it.key) && String(it.key.value) === String(key));
  const range = pair && isNode(pair.key) ? pair.key.range : undefined;
  return range ? parsed.lines.linePos(range[0]).line : undefined;
}

/** Render a path as `entries[3].provenance.license`. */
export function formatPath(pathParts: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of pathParts) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out || '(top level)';
}

function getAt(value: unknown, pathParts: ReadonlyArray<PropertyKey>): unknown {
  let v = value;
  for (const p of pathParts) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

interface ZodDefLike {
  type?: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  element?: unknown;
  valueType?: unknown;
  keyType?: unknown;
  options?: unknown[];
  in?: unknown;
  getter?: () => unknown;
}

const defOf = (schema: unknown): ZodDefLike | undefined =>
  (schema as { _zod?: { def?: ZodDefLike } } | undefined)?._zod?.def;

/**
 * The object (or record) schemas `schema` may be at `pathParts` (through optional, default, array,
 * record, union).
 */
function defsAt(
  schema: unknown,
  pathParts: ReadonlyArray<PropertyKey>,
  type: 'object' | 'record' = 'object',
  depth = 0,
): ZodDefLike[] {
  const def = defOf(schema);
  if (!def || depth > 64) return [];
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return defsAt(def.innerType, pathParts, type, depth + 1);
    case 'pipe':
      return defsAt(def.in, pathParts, type, depth + 1);
    case 'lazy':
      return def.getter ? defsAt(def.getter(), pathParts, type, depth + 1) : [];
    case 'union':
      return (def.options ?? []).flatMap((o) => defsAt(o, pathParts, type, depth + 1));
    case undefined:
    default:
      break;
  }
  if (pathParts.length === 0) return def.type === type ? [def] : [];
  const [head, ...rest] = pathParts;
  if (def.type === 'object')
    return def.shape && String(head) in def.shape
      ? defsAt(def.shape[String(head)], rest, type, depth + 1)
      : [];
  if (def.type === 'array') return defsAt(def.element, rest, type, depth + 1);
  if (def.type === 'record') return defsAt(def.valueType, rest, type, depth + 1);
  return [];
}

/** The field names the schema knows at `pathParts`, an enum-keyed record's keys among them (empty when it cannot tell). */
function knownKeysAt(
  schema: z.ZodType | undefined,
  pathParts: ReadonlyArray<PropertyKey>,
): string[] {
  if (!schema) return [];
  const enumKeys = defsAt(schema, pathParts, 'record').flatMap(({ keyType }) =>
    Object.values((defOf(keyType) as { entries?: Record<string, unknown> })?.entries ?? {}).filter(
      (v): v is string => typeof v === 'string',
    ),
  );
  return [
    ...new Set([
      ...defsAt(schema, pathParts).flatMap((d) => Object.keys(d.shape ?? {})),
      ...enumKeys,
    ]),
  ];
}

/** A discriminated union's tag matching none of its entries (e.g. a models file's `provider`). */
const isDiscriminatorMiss = (issue: z.core.$ZodIssue): boolean =>
  issue.code === 'invalid_union' &&
  (issue as { note?: string }).note === 'No matching discriminator';

/** The values an issue allows: an enum's, or a discriminated union's tags (a defaulted one's `undefined` left out). */
function valuesOf(issue: z.core.$ZodIssue): unknown[] {
  const v = (issue as { values?: unknown[]; options?: unknown[] }).values;
  return v ?? ((issue as { options?: unknown[] }).options ?? []).filter((o) => o !== undefined);
}

/** Spellings of a key its writer may have meant: `-` for `_`, BCP 47's case (`pt_br` → `pt-BR`, `zh-hant` → `zh-Hant`). */
function keySpellings(key: string): string[] {
  const parts = key
    .trim()
    .split(/[-_\s]+/)
    .filter(Boolean);
  const bcp47 = parts
    .map((part, i) =>
      i === 0 || !/^[A-Za-z]+$/.test(part)
        ? part.toLowerCase()
        : part.length === 4
          ? part[0]!.toUpperCase() + part.slice(1).toLowerCase()
          : part.length === 2
            ? part.toUpperCase()
            : part.toLowerCase(),
    )
    .join('-');
  return [...new Set([key.toLowerCase(), bcp47, key.replace(/_/g, '-')])].filter((k) => k !== key);
}

/** The key a record at `parentPath` accepts that `key` was probably meant to be. */
function keyGuess(schema: z.ZodType, parentPath: PropertyKey[], key: string): string | undefined {
  for (const { keyType } of defsAt(schema, parentPath, 'record')) {
    const fits = keySpellings(key).find((k) => (keyType as z.ZodType).safeParse(k).success);
    if (fits) return fits;
  }
  return undefined;
}

/** A spelling of `value` (keySpellings) that the pattern a string failed accepts (`mn_Mong` → `mn-Mong`). */
function patternSpelling(issue: z.core.$ZodIssue, value: string): string | undefined {
  const pattern = (issue as { format?: string; pattern?: string }).pattern;
  const m = issue.code === 'invalid_format' && pattern ? /^\/(.*)\/([a-z]*)$/s.exec(pattern) : null;
  if (!m) return undefined;
  const re = new RegExp(m[1]!, m[2]);
  return keySpellings(value).find((s) => re.test(s));
}

/** A record's key its key schema refuses (`kk_KZ` where a language tag belongs). */
function keyProblem(
  p: Problem,
  parsed: ParsedDataFile,
  issue: z.core.$ZodIssue,
  schema: z.ZodType | undefined,
): void {
  const key = String(issue.path[issue.path.length - 1]);
  const inner = (issue as { issues?: Array<{ message?: string }> }).issues?.[0];
  p.line = keyLineOf(parsed, issue.path) ?? p.line;
  p.message = `key "${key}" is not allowed here`;
  if (inner?.message) p.expected = inner.message;
  p.got = JSON.stringify(key);
  const guess = schema ? keyGuess(schema, issue.path.slice(0, -1), key) : undefined;
  p.fix = guess
    ? `rename the key "${key}" to "${guess}" (did you mean ${guess}?)`
    : `rename the key "${key}"${p.expected ? ` (expected ${p.expected})` : ''}`;
}

/**
 * Turn zod issues into problems with lines, field paths, expected and got. With `schema`, an
 * unknown field's fix names the closest known field (`licence` → `license`).
 */
export function zodProblems(
  parsed: ParsedDataFile,
  error: z.ZodError,
  code: string,
  schema?: z.ZodType,
): Problem[] {
  const problems: Problem[] = [];
  for (const issue of error.issues) {
    const issuePath = issue.path;
    const got = getAt(parsed.value, issuePath);
    const p: Problem = {
      code,
      severity: 'error',
      file: parsed.file,
      line: lineOf(parsed, issuePath),
      field: formatPath(issuePath),
      message: issue.message,
    };
    if (issue.code === 'invalid_type') {
      p.expected = String((issue as { expected?: unknown }).expected);
      p.got = describeValue(got);
      p.message = got === undefined ? 'required field is missing' : 'wrong type';
      p.fix = got === undefined ? `add ${p.field}` : `give ${p.field} as ${p.expected}`;
    } else if (issue.code === 'unrecognized_keys') {
      const keys = (issue as { keys: string[] }).keys;
      p.message = `unknown field(s) ${keys.map((k) => `"${k}"`).join(', ')}`;
      p.line =
        keyLineOf(parsed, [...issuePath, keys[0]!]) ?? lineOf(parsed, [...issuePath, keys[0]!]);
      const known = knownKeysAt(schema, issuePath);
      const guesses = keys
        .map((k) => [k, closest(k, known)] as const)
        .filter((g): g is readonly [string, string] => g[1] !== undefined);
      p.fix =
        guesses.length > 0
          ? `${guesses.map(([k, g]) => `rename "${k}" to "${g}"`).join('; ')}${guesses.length < keys.length ? '; remove the others' : ''} (did you mean ${guesses.map(([, g]) => g).join(', ')}?)`
          : known.length > 0
            ? `remove or rename them; known fields here: ${known.join(', ')}`
            : 'remove or rename them (check the spelling against the schema)';
    } else if (issue.code === 'invalid_key') {
      keyProblem(p, parsed, issue, schema);
    } else if (issue.code === 'invalid_value' || isDiscriminatorMiss(issue)) {
      const values = valuesOf(issue);
      // a long list (ISO codes) is cut; the nearest value is suggested
      const shown = values.slice(0, 12).map((v) => JSON.stringify(v));
      p.expected = `one of ${shown.join(', ')}${values.length > 12 ? `, … (${values.length} in all)` : ''}`;
      p.got = describeValue(got);
      p.message = 'value not allowed';
      const near =
        typeof got === 'string'
          ? closest(
              got,
              values.filter((v): v is string => typeof v === 'string'),
            )
          : undefined;
      p.fix = near
        ? `use ${JSON.stringify(near)} (did you mean ${near}?), or ${p.expected}`
        : `use ${p.expected}`;
    } else {
      // A schema's own check may say what it expects and the fix (`params` of a custom issue).
      const params = (issue as { params?: { expected?: string; fix?: string } }).params;
      p.got = describeValue(got);
      if (params?.expected) p.expected = params.expected;
      const spelt = typeof got === 'string' ? patternSpelling(issue, got) : undefined;
      p.fix =
        params?.fix ??
        (spelt ? `write ${JSON.stringify(spelt)} (did you mean ${spelt}?)` : `correct ${p.field}`);
    }
    problems.push(p);
  }
  return problems;
}

/**
 * Read a YAML/JSON file and validate it against `schema`. Throws a StimkitError listing every
 * problem (syntax or schema) with line numbers; returns the parsed data and the raw text.
 */
export async function loadDataFile<S extends z.ZodType>(
  file: string,
  schema: S,
  code: string,
): Promise<{ data: z.output<S>; parsed: ParsedDataFile }> {
  const text = await readTextFile(file, code);
  const parsed = parseDataText(file, text, code);
  const result = schema.safeParse(parsed.value);
  if (!result.success) {
    const problems = zodProblems(parsed, result.error, code, schema);
    throw new StimkitError(
      code,
      `${file}: ${problems.length} problem(s) in the ${path.basename(file)} schema check`,
      {
        fix: 'correct each field listed below (manifests/schema/ has the JSON Schema for editors)',
        problems,
      },
    );
  }
  return { data: result.data, parsed };
}
