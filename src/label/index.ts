/** Human labelling: the validation sample, its sampler, the rater store and the labels CSV. */
export {
  LABEL_SAMPLE_FORMAT,
  LABEL_SAMPLE_VERSION,
  LabelSample,
  SampleItem,
  STRATA,
  type Stratum,
} from './sample-schema.js';
export {
  sampleForValidation,
  type SampleOptions,
  type SampleResult,
  type SampleRow,
} from './sampler.js';
export {
  buildLabelSample,
  DEFAULT_STRATA,
  makeLabelSample,
  sampleItemId,
  type BuildSampleOptions,
} from './make-sample.js';
export { openLabelSample, readLabelSample } from './load-sample.js';
export { exportLabels, LABEL_COLUMNS } from './export.js';
export { readJudgeLabels, disagreements, type JudgeLabels } from './judges.js';
export { serveLabels, type LabelServeOptions } from './serve.js';
export { loadBundle, type BundleData } from './bundle.js';
