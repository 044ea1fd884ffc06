/**
 * The bundle stage's public surface: seal a study (`bundleStudy`), the summaries the CLI prints,
 * and the payload formats. Verification lives in `src/verify/` (`verifyBundle`).
 */
export { bundleStudy, type BundleOptions, type BundleResult } from './bundle.js';
export { bundleHuman, bundleJson } from './summary.js';
export {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  BundleHeader,
  Counts,
  imagePayloadPath,
  PAYLOAD,
  Trial,
} from './format.js';
export { trialId, TRIAL_ID_SCHEME } from './trial-id.js';
