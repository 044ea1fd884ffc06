/** The verify stage's public surface: `verifyBundle` and the summaries the CLI prints. */
export { verifyBundle } from './verify.js';
export { verifyHuman, verifyJson } from './summary.js';
