/**
 * The files stimkit ships in its `manifests/` folder, and `stimkit:<name>` references to them.
 * Any reference to a data file (`extends`, a study's `topics` / `wrappers` / `prompts` /
 * `corpus`) may name a shipped file as `stimkit:<name>`; it resolves to the installed package's
 * copy, which is read and sealed by its content hash like any other file.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { StimkitError, type Problem } from './errors.js';
import { relPosix } from './fsio.js';
import { closest } from './suggest.js';
import { PACKAGE_ROOT } from './tool.js';

/** The prefix of a reference to a shipped file. */
export const SHIPPED_PREFIX = 'stimkit:';

/** The installed package's folder of shipped data files. */
export const SHIPPED_DIR = path.join(PACKAGE_ROOT, 'manifests');

/**
 * The names of the shipped data files (YAML and JSON directly in `manifests/`, the language
 * packs as `languages/<tag>.yaml` and the pressure follow-ups as `pressure/<tag>.yaml`), sorted. A
 * corpus lock there (`<name>.corpus.lock.json`, what `stimkit ingest` writes beside a manifest run
 * in the clone) is a working file, not shipped data: left out, as from the package.
 */
export function shippedNames(): string[] {
  const data = (dir: string) =>
    readdirSync(path.join(SHIPPED_DIR, dir), { withFileTypes: true })
      .filter(
        (d) =>
          d.isFile() && /\.(ya?ml|json)$/.test(d.name) && !d.name.endsWith('.corpus.lock.json'),
      )
      .map((d) => path.posix.join(dir, d.name));
  return [...data(''), ...data('languages'), ...data('pressure')].sort();
}

/** Whether `ref` names a shipped file (`stimkit:<name>`). */
export function isShippedRef(ref: string): boolean {
  return ref.startsWith(SHIPPED_PREFIX);
}

/** Where a reference stands, for the error when it names no shipped file. */
export type RefContext = Omit<Problem, 'severity' | 'message' | 'fix' | 'expected' | 'got'>;

/** The absolute path of shipped file `name`, or an error listing the shipped names. */
export function shippedFile(name: string, where: RefContext): string {
  const names = shippedNames();
  if (names.includes(name)) return path.join(SHIPPED_DIR, name);
  const guess = closest(name, names);
  throw StimkitError.fromProblem({
    ...where,
    message: `${SHIPPED_PREFIX}${name} is not a file stimkit ships`,
    expected: `one of ${names.map((n) => SHIPPED_PREFIX + n).join(', ')}`,
    got: SHIPPED_PREFIX + name,
    fix: guess
      ? `did you mean ${SHIPPED_PREFIX}${guess}? (\`stimkit check --shipped\` lists them)`
      : 'name one of the shipped files (`stimkit check --shipped` lists them), or a path',
  });
}

/**
 * Resolve a data-file reference: `stimkit:<name>` to the shipped file, anything else relative
 * to `baseDir`.
 */
export function resolveRef(ref: string, baseDir: string, where: RefContext): string {
  return isShippedRef(ref)
    ? shippedFile(ref.slice(SHIPPED_PREFIX.length), where)
    : path.resolve(baseDir, ref);
}

/**
 * How an artifact records input `file` of something in `baseDir`: a shipped file as
 * `stimkit:<name>` (its content is sealed by hash; the install folder is no part of it), unless
 * `baseDir` is the shipped folder itself (the demo study), else the path relative to `baseDir`.
 */
export function recordedRef(baseDir: string, file: string): string {
  const abs = path.resolve(file);
  if (path.dirname(abs) === SHIPPED_DIR && path.resolve(baseDir) !== SHIPPED_DIR) {
    return SHIPPED_PREFIX + path.basename(abs);
  }
  // A shipped file in a subfolder (`pressure/en.yaml`): its name, never the install folder.
  const inShipped = path.relative(SHIPPED_DIR, abs);
  if (path.dirname(inShipped) === 'pressure' && path.resolve(baseDir) !== SHIPPED_DIR)
    return SHIPPED_PREFIX + inShipped.split(path.sep).join('/');
  return relPosix(baseDir, abs);
}
