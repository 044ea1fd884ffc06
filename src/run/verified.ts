/** The digest of a bundle that verifies, or E_RUN_BUNDLE_INVALID naming the files (as run). */
import { StimkitError } from '../core/errors.js';
import { verifyBundle } from '../verify/verify.js';

export async function verifiedDigest(bundleDir: string): Promise<string> {
  const v = await verifyBundle(bundleDir);
  if (!v.ok || !v.digest) {
    const files = [...v.changed, ...v.missing, ...v.extra];
    throw new StimkitError(
      'E_RUN_BUNDLE_INVALID',
      `${bundleDir}: the bundle does not verify${files.length ? ` (${files.slice(0, 5).join(', ')}${files.length > 5 ? ', …' : ''})` : ''}; refusing it`,
      {
        problems:
          v.problems.length > 0
            ? v.problems
            : [
                {
                  code: 'E_RUN_BUNDLE_INVALID',
                  severity: 'error',
                  file: bundleDir,
                  message: 'the bundle does not verify',
                  fix: 'run stimkit verify on it',
                },
              ],
      },
    );
  }
  return v.digest;
}
