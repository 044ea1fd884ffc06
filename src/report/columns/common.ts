/**
 * Columns that mean the same in every report table. A table's own entry (columns/instrument.ts,
 * columns/audit.ts) wins over these.
 */
import type { ColumnDefs } from '../dictionary.js';

export const COMMON_COLUMNS: ColumnDefs = {
  model: ['Model', 'text', 'The model as the ledger or responses file names it'],
  origin: [
    'Origin',
    'text',
    'Country code of the model’s developer, from the models file (unknown when it gives none)',
    'the models file gives no origin for this model',
  ],
  vendor: [
    'Vendor',
    'text',
    'Who serves the model, from the models file or the ledger',
    'neither names one',
  ],
  simulated: [
    'Simulated',
    'flag',
    'Whether the row’s numbers come from simulated input: a simulated respondent, or labels from a simulated judge or simulated raters',
  ],
  simulated_respondent: [
    'Simulated respondent',
    'flag',
    'Whether the model is a simulated respondent (provider sim)',
  ],
  lang: ['Language', 'text', 'Prompt language (its code, as the study names it)'],
  language: [
    'Language name',
    'text',
    'The language’s English name from its language pack, with its code; the code alone when no pack names it',
  ],
  language_own: [
    'Own name',
    'text',
    'The language’s name in the language itself, from its language pack (written in its script and direction)',
    'no language pack names the language',
  ],
  topic: ['Topic', 'text', 'Instrument topic id from the bundle'],
  judge: ['Judge', 'text', 'The judge model, as the models file names it'],
  dim: ['Dimension', 'text', 'Audit dimension d1–d5 (Appendix E of the audit paper)'],
  dimension: ['Dimension', 'text', 'Audit dimension'],
  variant: ['Variant', 'text', 'Abstraction variant A0 (original) … A6 (silhouette)'],
  entry: ['Entry', 'text', 'Corpus entry id'],
  x: ['Positives', 'count', 'Responses labelled 1 on the dimension'],
  n: ['n', 'count', 'Responses in the row'],
  rate: ['Rate', 'proportion', 'x / n'],
  lower: ['95 % CI low', 'proportion', 'Lower end of the Wilson 95 % interval of the rate'],
  upper: ['95 % CI high', 'proportion', 'Upper end of the Wilson 95 % interval of the rate'],
};
