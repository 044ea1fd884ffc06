/** `stimkit diff`: two sealed bundles compared by meaning. */
export { diffBundles, diffPayloads, trialFields, type BundleDiff, type TrialRef } from './diff.js';
export { diffHuman, diffJson } from './summary.js';
export { diffValues, type FieldChange } from './values.js';
