/**
 * The stimuli stage: prompt cards, topics (minimal pairs with polarity keys), wrapper pools with
 * seeded draws, and the rendered instrument prompt. Later stages (bundle, score) import from here.
 */
export { loadTopics, type TopicItem } from './topics.js';
export { expandPairs, type PairItem } from './pairs.js';
export { loadWrapperPools, responseOptions } from './wrappers.js';
export { drawIndex, drawKey, drawU64, drawWrappers, type DrawTrial } from './draw.js';
export { INSTRUMENT_SEPARATOR, renderInstrumentPrompt } from './render.js';
export { matchLabels, missingLabels } from './labels.js';
export { loadPromptCards, renderPromptCard } from './prompts.js';
export { findSwap } from './swap.js';
