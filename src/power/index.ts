/** Power analysis and parameter recovery with simulated respondents. */
export { runPower, type PowerOptions, type PowerResult, type PowerRow } from './power.js';
export { powerCsv, powerHuman, powerJson } from './summary.js';
export {
  expectedFor,
  instrumentTrials,
  simulateRows,
  simulateStudy,
  type SimModel,
} from './study.js';
