/**
 * A fix for every verify problem: what a researcher holding a bundle that does not verify should
 * do. Problems that carry their own fix keep it; the rest get the one of their code.
 */
import type { Problem } from '../core/errors.js';

const RESTORE =
  'restore the original file from a copy of the bundle that verifies (a sealed bundle never changes)';

/** The default fix of each verify problem code. */
const VERIFY_FIXES: Record<string, string> = {
  E_VERIFY_CHANGED: `${RESTORE}; if the change is intended, rebuild the study with stimkit bundle, which gives a new digest`,
  E_VERIFY_ALGORITHM: 'rebuild the bundle with stimkit bundle (it writes sha256 manifests)',
  E_VERIFY_MANIFEST_SYNTAX: RESTORE,
  E_VERIFY_MANIFEST_PATH: RESTORE,
  E_VERIFY_BAGIT_TXT: RESTORE,
  E_VERIFY_HEADER: RESTORE,
  E_VERIFY_TRIALS: RESTORE,
  E_VERIFY_OXUM: RESTORE,
  E_VERIFY_DIGEST: "use the bundle the digest was published for, or cite this bundle's digest",
};

/** The fix for a problem of `code` (a generic one for codes not listed). */
function verifyFix(code: string): string {
  return VERIFY_FIXES[code] ?? RESTORE;
}

/** Give every problem without a fix the one of its code. */
export function withFixes(problems: Problem[]): Problem[] {
  return problems.map((p) => (p.fix ? p : { ...p, fix: verifyFix(p.code) }));
}

/** The closing line of a failed verify: what to do about the bundle as a whole. */
export const VERIFY_FIX_LINE =
  'Fix: restore the files named above from a copy of the bundle that verifies; a bundle that was changed on purpose is a new study: rebuild it with stimkit bundle and cite the new digest.';
