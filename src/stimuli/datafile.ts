/**
 * Loading the stimulus data files (topics, wrapper pools, prompt cards): schema check through the
 * core loader, the digest of the bytes for provenance, and the `extends` chain that lets a file
 * add a language to another file without repeating (and possibly contradicting) it.
 */
import path from 'node:path';
import type { z } from 'zod';
import { formatPath, lineOf, loadDataFile, type ParsedDataFile } from '../core/datafile.js';
import { StimkitError, type Problem } from '../core/errors.js';
import { sha256File } from '../core/fsio.js';
import { resolveRef } from '../core/shipped.js';

/** One input file: its absolute path and the sha256 of its bytes. */
export interface InputFile {
  file: string;
  sha256: string;
}

/** A validated data file with its parse (for line numbers) and digest. */
export interface LoadedFile<T> {
  data: T;
  parsed: ParsedDataFile;
  input: InputFile;
}

/** Load and schema-check a data file; record the digest of its bytes. */
export async function loadStimulusFile<S extends z.ZodType>(
  file: string,
  schema: S,
  code: string,
): Promise<LoadedFile<z.output<S>>> {
  const { data, parsed } = await loadDataFile(file, schema, code);
  return { data, parsed, input: { file: path.resolve(file), sha256: await sha256File(file) } };
}

/** Maximum depth of an `extends` chain (a guard against runaway chains). */
const MAX_EXTENDS_DEPTH = 8;

/**
 * Resolve the `extends` of `file` (relative to its folder, or `stimkit:<name>`) and refuse cycles and chains deeper
 * than MAX_EXTENDS_DEPTH. `chain` lists the absolute paths already being loaded.
 */
function resolveExtends(
  parsed: ParsedDataFile,
  ext: string,
  chain: readonly string[],
  code: string,
): string {
  const target = resolveRef(ext, path.dirname(parsed.file), {
    code,
    file: parsed.file,
    line: lineOf(parsed, ['extends']),
    field: 'extends',
  });
  const problem = (message: string, fix: string): StimkitError =>
    StimkitError.fromProblem({
      code,
      file: parsed.file,
      line: lineOf(parsed, ['extends']),
      field: 'extends',
      message,
      fix,
    });
  if (chain.includes(target) || target === path.resolve(parsed.file)) {
    throw problem(
      `extends forms a cycle (${[...chain, target].map((f) => path.basename(f)).join(' → ')})`,
      'point extends at the base file, which must not extend this one',
    );
  }
  if (chain.length >= MAX_EXTENDS_DEPTH) {
    throw problem(
      `extends chain deeper than ${MAX_EXTENDS_DEPTH} files`,
      'extend the base file directly',
    );
  }
  return target;
}

/** Throw one StimkitError listing every problem, if there are any errors. */
export function throwIfProblems(
  code: string,
  file: string,
  what: string,
  problems: Problem[],
): void {
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length === 0) return;
  const only = errors.length === 1 ? errors[0]! : undefined;
  const codeOut = only
    ? only.code
    : new Set(errors.map((p) => p.code)).size === 1
      ? errors[0]!.code
      : code;
  throw new StimkitError(codeOut, `${file}: ${errors.length} problem(s) in the ${what}`, {
    fix: 'correct the file as each problem below says',
    problems,
  });
}

/** An error problem at `pathParts` of a parsed file. */
export function problemAt(
  parsed: ParsedDataFile,
  pathParts: ReadonlyArray<PropertyKey>,
  p: Omit<Problem, 'severity' | 'file' | 'line' | 'field'> & { field?: string },
): Problem {
  return {
    severity: 'error',
    file: parsed.file,
    line: lineOf(parsed, pathParts),
    field: p.field ?? formatPath(pathParts),
    ...p,
  };
}

/** The files `extends` names: one file, or a list of files. */
export const extendsList = (ext: string | readonly string[] | undefined): readonly string[] =>
  ext === undefined ? [] : typeof ext === 'string' ? [ext] : ext;

/** The files to fold, base first, each once (a file two extended files share is read once). */
interface Linear<D> {
  files: Array<LoadedFile<D>>;
  seen: Set<string>;
}

/**
 * Read `file` and, depth first, every file it extends, appending each after the files it builds
 * on (once each). `chain` is the path of files being read, for cycles and depth.
 */
async function linearize<S extends z.ZodType<{ extends?: string | string[] }>>(
  file: string,
  schema: S,
  prefix: string,
  out: Linear<z.output<S>>,
  chain: readonly string[],
): Promise<void> {
  const loaded = await loadStimulusFile(file, schema, `${prefix}_SCHEMA`);
  const here = [...chain, loaded.input.file];
  for (const ext of extendsList(loaded.data.extends)) {
    const target = resolveExtends(loaded.parsed, ext, here, `${prefix}_EXTENDS`);
    if (!out.seen.has(target)) await linearize(target, schema, prefix, out, here);
  }
  if (out.seen.has(loaded.input.file)) return;
  out.seen.add(loaded.input.file);
  out.files.push(loaded);
}

/**
 * Load `file` and, through its `extends` (one file or a list), the files it builds on, folding
 * them base first with `build(loaded, base)`; `base` is null for the file that extends nothing.
 * A list combines files that extend one base (e.g. two language files of one topics file): each
 * file is applied once, after every file it extends. The files must share one base file (the
 * only one that extends nothing). `prefix` names the error codes (`<prefix>_SCHEMA`,
 * `<prefix>_EXTENDS`).
 */
export async function loadExtendsChain<S extends z.ZodType<{ extends?: string | string[] }>, T>(
  file: string,
  schema: S,
  prefix: string,
  build: (loaded: LoadedFile<z.output<S>>, base: T | null) => T,
): Promise<T> {
  const lin: Linear<z.output<S>> = { files: [], seen: new Set() };
  await linearize(file, schema, prefix, lin, []);
  const roots = lin.files.filter((f) => f.data.extends === undefined);
  if (roots.length > 1) {
    const top = lin.files[lin.files.length - 1]!;
    throw StimkitError.fromProblem({
      code: `${prefix}_EXTENDS`,
      file: top.parsed.file,
      line: lineOf(top.parsed, ['extends']),
      field: 'extends',
      message: `the files extends names build on different base files (${roots.map((r) => path.basename(r.input.file)).join(', ')})`,
      expected: 'files that extend one base file',
      got: `${roots.length} base files`,
      fix: 'list files that extend the same base file (or the base file itself)',
    });
  }
  let acc: T | null = null;
  for (const f of lin.files) acc = build(f, acc);
  return acc!;
}

/** The base names of the files `extends` names, for messages ("a.yaml, b.yaml"). */
export const extendsNames = (ext: string | readonly string[] | undefined): string =>
  extendsList(ext)
    .map((e) => path.basename(e))
    .join(', ');
