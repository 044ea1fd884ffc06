/** `stimkit compare`: two runs of one sealed bundle compared trial by trial. */
export { compareScores } from './compare.js';
export { compareHuman } from './summary.js';
export { writeCompare } from './write.js';
export type { CompareResult } from './format.js';
