/**
 * The bundle stage's public surface: seal a study (`bundleStudy`), the summaries the CLI prints,
 * and the payload formats. Verification lives in `src/verify/` (`verifyBundle`).
 */
export { bundleStudy } from './bundle.js';
export { bundleHuman, bundleJson } from './summary.js';
