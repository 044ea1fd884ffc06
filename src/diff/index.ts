/** `stimkit diff`: two sealed bundles compared by meaning. */
export { diffBundles } from './diff.js';
export { diffHuman, diffJson } from './summary.js';
