/** Exact and near duplicate images among the entries of a corpus lock, for `stimkit ingest`. */
import type { Problem } from '../core/errors.js';
import { hamming } from '../core/phash.js';
import type { CorpusLock, LockEntry } from './lock.js';

/** Exact and near duplicates among decoded entries. */
export function findDuplicates(
  entries: LockEntry[],
  threshold: number,
  allowDuplicates: boolean,
  where: (id: string) => Pick<Problem, 'file' | 'line' | 'field'>,
): { near: CorpusLock['near_duplicates']; problems: Problem[] } {
  const near: CorpusLock['near_duplicates'] = [];
  const problems: Problem[] = [];
  const ok = entries.filter((e) => e.image.resolved.status === 'ok');
  const declared = (a: LockEntry, b: LockEntry) =>
    a.image.same_as === b.id || b.image.same_as === a.id;
  for (let i = 0; i < ok.length; i++) {
    for (let j = i + 1; j < ok.length; j++) {
      const a = ok[i]!;
      const b = ok[j]!;
      if (a.image.resolved.sha256 === b.image.resolved.sha256) {
        if (!allowDuplicates && !declared(a, b)) {
          problems.push({
            code: 'E_INGEST_DUPLICATE_IMAGE',
            severity: 'error',
            ...where(b.id),
            entry: b.id,
            message: `the same image bytes are used by "${a.id}" and "${b.id}"`,
            fix: `use a different image, or declare it with image.same_as: ${a.id} (or pass --allow-duplicates)`,
          });
        }
        continue;
      }
      const distance = hamming(a.image.resolved.phash!, b.image.resolved.phash!);
      if (distance <= threshold) {
        near.push({ a: a.id, b: b.id, distance });
        if (!declared(a, b)) {
          problems.push({
            code: 'W_INGEST_NEAR_DUPLICATE',
            severity: 'warning',
            ...where(b.id),
            entry: b.id,
            message: `looks like "${a.id}" (perceptual hash distance ${distance} ≤ ${threshold})`,
            fix: `check the two images; if intended, declare image.same_as: ${a.id}`,
          });
        }
      }
    }
  }
  return { near, problems };
}
