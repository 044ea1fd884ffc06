/** `stimkit review`: a corpus review page and CSV. */
export { reviewCorpus } from './review.js';
