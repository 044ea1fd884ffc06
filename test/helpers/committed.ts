/**
 * Committed fixtures the tests rely on. A missing one fails the tests that need it, loudly, with
 * the command that makes it: a test never disappears because its input is absent.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './cli.js';

/** The demo's committed variants lock (and the images beside it). */
export const DEMO_VARIANTS_LOCK = path.join(ROOT, 'variants', 'demo', 'variants.lock.json');

/** The demo's models file. */
export const DEMO_MODELS = path.join(ROOT, 'manifests', 'demo.models.yaml');

const HOW: Record<string, string> = {
  [DEMO_VARIANTS_LOCK]:
    'make it with `npx stimkit variants corpora/demo/corpus.lock.json --out variants/demo` (or restore it from git)',
  [DEMO_MODELS]: 'restore it from git (`git checkout -- manifests/demo.models.yaml`)',
};

/** Throw, saying how to make it, when the committed fixture `file` is missing. */
export function requireCommitted(file: string): void {
  if (!existsSync(file))
    throw new Error(
      `${path.relative(ROOT, file)} is missing, so these tests cannot run: ${HOW[file] ?? 'restore it from git'}`,
    );
}

/**
 * Whether tests needing a dependency outside the repository (python3, the optional segmentation
 * package) are skipped: only when it is missing and `env` is set to 1, said on stderr. Missing
 * without `env`, they run and fail with `requirePresent`'s message.
 */
export function skippedOnRequest(present: boolean, env: string, file: string): boolean {
  const skip = !present && process.env[env] === '1';
  if (skip) console.warn(`${file}: SKIPPED because ${env}=1 (and the dependency is missing)`);
  return skip;
}

/** Throw, saying what to install or which variable skips the tests, when `present` is false. */
export function requirePresent(present: boolean, what: string, env: string): void {
  if (!present)
    throw new Error(
      `${what} is missing, so these tests cannot run: install it, or set ${env}=1 to skip them`,
    );
}
