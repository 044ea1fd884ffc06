/** The score stage: paradigm scorers, forced-choice parsing, keyed signing, the scores artifact. */
export { loadScoreBundle, type BundleItem, type BundleTopic, type ScoreBundle } from './bundle.js';
export { csvField, csvText, parseCsv } from '../core/csv.js';
export { CUES, cuesFor, type CueSet } from './cues.js';
export { SCORES_FILES, SCORES_FORMAT, SCORES_VERSION, ScoreLine, ScoresHeader } from './format.js';
export { instrumentScorer, instrumentTable, keyingSign, keyScore } from './instrument.js';
export { metaFor, readModelMeta } from './models.js';
export {
  normalizeText,
  optionParser,
  ZERO_REASONS,
  type Option,
  type OptionParser,
  type ParseResult,
  type ZeroReason,
} from './parse.js';
export { SCORERS, scorerFor, tablesOf, trialsTable } from './registry.js';
export { readResponsesJsonl, ResponseLine } from './responses.js';
export {
  scoreResponses,
  scoreToFolder,
  type ResponseSource,
  type ScoreOptions,
  type ScoreResult,
} from './score.js';
export { scoreHuman, scoreJson } from './summary.js';
export type {
  Cell,
  CsvColumn,
  CsvTable,
  ModelMeta,
  ParadigmScorer,
  ResponseRecord,
  ScoreInput,
  ScoreRecord,
  TableRow,
} from './types.js';
