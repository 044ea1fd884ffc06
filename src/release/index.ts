/** `stimkit release` and `stimkit rehydrate`: a licence-aware dataset release and its rebuild. */
export { buildRelease, type ReleaseResult } from './release.js';
export { rehydrate, type RehydrateResult } from './rehydrate.js';
