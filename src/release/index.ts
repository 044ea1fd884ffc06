/** `stimkit release` and `stimkit rehydrate`: a licence-aware dataset release and its rebuild. */
export { buildRelease } from './release.js';
export { rehydrate } from './rehydrate.js';
