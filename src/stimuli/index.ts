/**
 * The stimuli stage: prompt cards, topics (minimal pairs with polarity keys), wrapper pools with
 * seeded draws, and the rendered instrument prompt. Later stages (bundle, score) import from here.
 */
export { loadTopics, type Topic, type TopicItem, type TopicsFile } from './topics.js';
export { POLES, TOPICS_FORMAT, TOPICS_VERSION, type Outcome, type Pole } from './topics-schema.js';
export {
  expandPairs,
  FRAMINGS,
  PAIRS_FORMAT,
  PAIRS_VERSION,
  pairsArtifact,
  polarityKey,
  runPairs,
  type Framing,
  type PairItem,
  type PairsArtifact,
  type PairsRun,
} from './pairs.js';
export {
  loadWrapperPools,
  poolFor,
  responseOptions,
  type ResponseOption,
  type WrapperPool,
  type WrapperPools,
  type WrapperText,
} from './wrappers.js';
export { WRAPPERS_FORMAT, WRAPPERS_VERSION } from './wrappers-schema.js';
export {
  DRAW_KEY_PREFIX,
  drawIndex,
  drawKey,
  drawU64,
  drawWrappers,
  seedText,
  type DrawnWrapper,
  type DrawTrial,
} from './draw.js';
export { INSTRUMENT_SEPARATOR, renderInstrumentPrompt } from './render.js';
export { matchLabels, missingLabels, type LabelMatch } from './labels.js';
export { loadPromptCards, renderPromptCard, type PromptCard, type PromptCards } from './prompts.js';
export { PROMPTS_FORMAT, PROMPTS_VERSION } from './prompts-schema.js';
export { isDraft, type ProvenanceStatus, type TextProvenance } from './provenance.js';
export { findSwap, exchangeTerms } from './swap.js';
