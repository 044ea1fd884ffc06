/**
 * `npm run synthetic`: rewrite the synthetic stand-in for the audit paper's corpus
 * (manifests/paper-synthetic.entries.yaml and corpora/paper-synthetic/) where it differs.
 */
import { emitError, processIo } from '../src/cli/output.js';
import { SYNTHETIC_FILES, writeSyntheticCorpus } from '../src/study/synthetic.js';

try {
  const { written } = await writeSyntheticCorpus(SYNTHETIC_FILES.manifest, SYNTHETIC_FILES.images);
  process.stderr.write(`synthetic corpus: ${written} file(s) written\n`);
} catch (err) {
  process.exitCode = emitError(processIo, false, err);
}
