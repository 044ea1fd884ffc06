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

/**
 * Load `file` and, through its `extends`, the files it builds on (base first), folding each with
 * `build(loaded, base)`; `base` is null for the file that extends nothing. `prefix` names the
 * error codes (`<prefix>_SCHEMA`, `<prefix>_EXTENDS`).
 */
export async function loadExtendsChain<S extends z.ZodType<{ extends?: string }>, T>(
  file: string,
  schema: S,
  prefix: string,
  build: (loaded: LoadedFile<z.output<S>>, base: T | null) => T,
  chain: readonly string[] = [],
): Promise<T> {
  const loaded = await loadStimulusFile(file, schema, `${prefix}_SCHEMA`);
  const here = [...chain, loaded.input.file];
  const ext = (loaded.data as { extends?: string }).extends;
  if (ext === undefined) return build(loaded, null);
  const target = resolveExtends(loaded.parsed, ext, here, `${prefix}_EXTENDS`);
  return build(loaded, await loadExtendsChain(target, schema, prefix, build, here));
}
