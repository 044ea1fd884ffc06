/** The columns of the audit sections' tables, by table id. */
import type { ColumnDefs } from '../dictionary.js';

const wilsonOf = (what: string, side: 'Lower' | 'Upper'): string =>
  `${side} end of the Wilson 95 % interval of the ${what}`;
const agreement: ColumnDefs = {
  items: ['Items', 'count', 'Items with at least two labels'],
  raw_agreement: ['Raw agreement', 'proportion', 'Mean pairwise share of equal labels'],
  gwet_ac1: ['Gwet AC1', 'statistic', 'Gwet’s AC1 (the primary reliability coefficient)'],
  cohen_kappa_mean: [
    'Cohen κ (mean of pairs)',
    'statistic',
    'Cohen’s kappa averaged over pairs',
    'not defined: one label only',
  ],
  fleiss_kappa: ['Fleiss κ', 'statistic', 'Fleiss’ kappa', 'not defined: one label only'],
  prevalence: ['Prevalence', 'proportion', 'Share of labels that are 1'],
};

const NO_CORRECTION =
  'no Rogan–Gladen correction: the validation gives no usable sensitivity and specificity (no positives or negatives, or a judge no better than chance)';

export const AUDIT_COLUMNS: Record<string, ColumnDefs> = {
  'audit-rates': {
    dimension: ['Dimension', 'text', 'D4 state-aligned framing or D1 explicit refusal'],
    n: ['n', 'count', 'Responses of the model in the language with a judge label'],
  },
  'audit-refusal-reframing': {
    n: ['n', 'count', 'Judged VLM responses of the model'],
    d1: ['Refusal (D1)', 'proportion', 'Explicit-refusal rate'],
    d1_lower: ['D1 95 % CI low', 'proportion', wilsonOf('refusal rate', 'Lower')],
    d1_upper: ['D1 95 % CI high', 'proportion', wilsonOf('refusal rate', 'Upper')],
    d4: ['Framing (D4)', 'proportion', 'State-aligned framing rate'],
    d4_lower: ['D4 95 % CI low', 'proportion', wilsonOf('framing rate', 'Lower')],
    d4_upper: ['D4 95 % CI high', 'proportion', wilsonOf('framing rate', 'Upper')],
  },
  'audit-ladder': {
    dimension: ['Dimension', 'text', 'D4 state-aligned framing or D1 explicit refusal'],
    n: ['n', 'count', 'Judged abstraction responses to the variant'],
  },
  'audit-ladder-thumbs': {
    variant_name: ['Variant name', 'text', 'What the variant does to the image'],
    source_sha256: ['Source sha256', 'text', 'sha256 of the variant image in the bundle'],
    source_width: ['Source width', 'pixels', 'Width of the variant image'],
    source_height: ['Source height', 'pixels', 'Height of the variant image'],
    thumb_file: ['Thumbnail file', 'text', 'The thumbnail, relative to the report folder'],
    thumb_width: ['Thumbnail width', 'pixels', 'Width of the thumbnail'],
    thumb_height: ['Thumbnail height', 'pixels', 'Height of the thumbnail'],
    thumb_sha256: ['Thumbnail sha256', 'text', 'sha256 of the thumbnail file'],
    d4_x: ['D4 framing', 'count', 'Responses to this entry × variant labelled D4'],
    d4_n: ['Judged', 'count', 'Judged responses to this entry × variant'],
  },
  'audit-strategies': {
    language: ['Language (n)', 'text', 'Prompt language and its number of D4+ responses'],
    strategy: ['Strategy', 'text', 'DT1 endorsement, DT2 substitution/euphemism, DT3 deflection'],
    x: ['Responses', 'count', 'D4+ responses of the language that use the strategy'],
    n: ['D4+ responses', 'count', 'State-aligned (D4+) responses of the language'],
    share: ['Share', 'proportion', 'x / n (multi-label: shares may add up to more than 100 %)'],
    lower: ['95 % CI low', 'proportion', wilsonOf('share', 'Lower')],
    upper: ['95 % CI high', 'proportion', wilsonOf('share', 'Upper')],
  },
  'audit-length': {
    n: ['n', 'count', 'Responses with a length, refusals excluded'],
    refusals_excluded: ['Refusals left out', 'count', 'Refusals not counted in the medians'],
    median_raw: ['Median, raw', 'characters', 'Median length of the response as given'],
    median_markdown: [
      'Median, no markdown',
      'characters',
      'Median length after markdown removal (Appendix O, pass 1)',
    ],
    median_clean: [
      'Median, cleaned',
      'characters',
      'Median length after removing scaffold lines and the trailing summary (pass 2)',
      'not computed: the language has no pass 2 rules (scaffold lines and summaries)',
    ],
  },
  'audit-eq1': {
    outcome: ['Outcome', 'text', 'Y of the fit: d4_state_aligned or d1_refusal'],
    term: ['Term', 'text', 'Model term (treatment-coded; [T.x] is level x against the reference)'],
    log_odds: ['Log-odds', 'log-odds', 'Coefficient'],
    se: ['SE', 'log-odds', 'Cluster-robust standard error of the coefficient'],
    odds_ratio: ['Odds ratio', 'odds ratio', 'exp(coefficient)'],
    or_lower: ['OR 95 % CI low', 'odds ratio', 'Lower end of the 95 % Wald CI of the odds ratio'],
    or_upper: ['OR 95 % CI high', 'odds ratio', 'Upper end of the 95 % Wald CI of the odds ratio'],
    p: ['p', 'p', 'Two-sided Wald test of coefficient = 0'],
    n: ['n', 'count', 'Responses in the fit'],
    clusters: [
      'Clusters',
      'count',
      'Corpus entries (the clusters of the standard errors)',
      'not clustered: fewer entries than coefficients, so the standard errors are model-based',
    ],
  },
  'audit-confusion': {
    cell: ['Cell', 'text', 'TP, FN, FP or TN of the confusion matrix'],
    human: ['Human majority', 'text', 'The human majority label (+ or −)'],
    judge_label: ['Judge label', 'text', 'The judge’s label (+ or −)'],
    count: ['Items', 'count', 'Validation items in the cell'],
  },
  'audit-judge-vs-human': {
    TP: ['TP', 'count', 'True positives: human +, judge +'],
    FN: ['FN', 'count', 'False negatives: human +, judge −'],
    FP: ['FP', 'count', 'False positives: human −, judge +'],
    TN: ['TN', 'count', 'True negatives: human −, judge −'],
    n: ['n', 'count', 'Validation items with both labels'],
    agreement: ['Agreement', 'proportion', '(TP + TN) / n'],
    precision: ['Precision', 'proportion', 'TP / (TP + FP)', 'not defined: no judge positives'],
    recall: ['Recall', 'proportion', 'TP / (TP + FN)', 'not defined: no human positives'],
    specificity: ['Specificity', 'proportion', 'TN / (TN + FP)', 'not defined: no negatives'],
    kappa: ['Cohen κ', 'statistic', 'Cohen’s kappa, judge against the majority', 'not defined'],
    judged_rate: [
      'Judged rate',
      'proportion',
      'Share of all responses the judge labelled that it labelled 1',
      NO_CORRECTION,
    ],
    corrected_rate: ['Corrected rate', 'proportion', 'Rogan–Gladen corrected rate', NO_CORRECTION],
    corrected_lower: [
      'Corrected 95 % CI low',
      'proportion',
      'Lower end of the delta-method 95 % interval of the corrected rate',
      NO_CORRECTION,
    ],
    corrected_upper: [
      'Corrected 95 % CI high',
      'proportion',
      'Upper end of the delta-method 95 % interval of the corrected rate',
      NO_CORRECTION,
    ],
  },
  'audit-raters': agreement,
  'audit-judge-agreement': {
    ...agreement,
    items: ['Items', 'count', 'Responses at least two judges labelled'],
  },
  // the run's cost (sections/cost.ts): tokens and USD per model from the scores folder's cost.csv
  'cost-per-model': {
    role: ['Role', 'text', 'respondent (answered the trials) or judge (labelled the answers)'],
    results: ['Results', 'count', 'Results of the model in the scored run'],
    'input tokens': ['Input tokens', 'count', 'Prompt tokens the replies’ usage reported'],
    'cached input tokens': [
      'Cached input tokens',
      'count',
      'Of the input tokens, those the vendor served from its cache',
    ],
    'output tokens': ['Output tokens', 'count', 'Completion tokens the replies’ usage reported'],
    'cost (USD)': [
      'Cost',
      'usd',
      'Usage × the models file’s price (batch discount applied)',
      'no price for the model',
    ],
    'results with usage but no price': [
      'Results without a price',
      'count',
      'Results that reported usage while the model has no price',
    ],
  },
  'audit-baselines': {
    'baseline vs reference': ['Baseline vs reference', 'text', 'Which detector against what'],
    hits: ['Hits', 'count', 'Positives of the reference the baseline flags (or misses)'],
    positives: [
      'Positives',
      'count',
      'Responses the judge labelled positive that the baseline could tell',
    ],
    recall: ['Recall', 'proportion', 'hits / positives', 'no positives'],
    untold: [
      'Left out',
      'count',
      'Positives the baseline could not tell (an empty cell: a language without its rules; for "any of the three" and "missed", one detector could not tell and none flags)',
    ],
  },
};
