/**
 * Where `stimkit ingest` writes the corpus lock by default: next to the entries manifest, named
 * after it (`manifests/demo.entries.yaml` → `manifests/demo.corpus.lock.json`), so that a
 * read-only image archive is never written to and two manifests in one folder keep two locks.
 * `--out DIR` writes `DIR/corpus.lock.json` instead.
 */
import path from 'node:path';

/** The file name of a corpus lock written into an explicit `--out` folder. */
export const LOCK_NAME = 'corpus.lock.json';

/** `demo.entries.yaml` → `demo`; `corpus.yml` → `corpus`. */
function manifestStem(manifestFile: string): string {
  return (
    path
      .basename(manifestFile)
      .replace(/\.(ya?ml|json)$/i, '')
      .replace(/\.entries$/i, '') || 'corpus'
  );
}

/**
 * The corpus lock ingest writes for `manifestFile`: `<out>/corpus.lock.json` when `out` is given,
 * else `<manifest folder>/<stem>.corpus.lock.json`.
 *
 * @example
 * corpusLockPath('manifests/demo.entries.yaml'); // '/…/manifests/demo.corpus.lock.json'
 */
export function corpusLockPath(manifestFile: string, out?: string): string {
  if (out !== undefined) return path.join(path.resolve(out), LOCK_NAME);
  return path.join(
    path.dirname(path.resolve(manifestFile)),
    `${manifestStem(manifestFile)}.${LOCK_NAME}`,
  );
}
