/** `stimkit review`: a corpus review page and CSV. */
export { reviewCorpus, type ReviewOptions, type ReviewResult } from './review.js';
export { loadReviewSource, type ReviewData, type ReviewEntry } from './source.js';
