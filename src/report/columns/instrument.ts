/** The columns of the instrument sections' tables, by table id. */
import type { ColumnDefs } from '../dictionary.js';

const zero = (why: string): ColumnDefs[string] => [
  why.split(':')[0]!,
  'count',
  `Responses scored 0 because ${why.split(':')[1]!.trim()}`,
];

const netCi = {
  lower: 'Lower end of the 95 % CI of net bias (one-sample t on the model’s cell means)',
  upper: 'Upper end of the 95 % CI of net bias (one-sample t on the model’s cell means)',
  empty: 'no interval: fewer than two cell means',
};

export const INSTRUMENT_COLUMNS: Record<string, ColumnDefs> = {
  'overview-models': {
    responses: ['Responses', 'count', 'Scored responses of the model'],
    neutral: zero('Neutral: the answer chose the neutral option'),
    refusal: zero('Refusal: the answer refused'),
    ambiguous: zero('Ambiguous: the answer named two different options'),
    unparseable: zero('Unparseable: no option could be read (free text a judge could score)'),
    no_response: zero('No response: the model gave no text'),
    judged_neutral: zero('Judged neutral: the judge read the free text as Neutral'),
    judge_unparseable: zero('Judge unparseable: the judge’s reply was none of the five labels'),
  },
  'net-vs-swing': {
    net: ['Net bias', 'stance', 'Mean keyed stance over both framings'],
    swing: [
      'Swing',
      'stance',
      '|mean affirmative − mean reverse| / 2: the part of the answers that follows the wording',
    ],
    raw: ['Raw agreement', 'stance', 'Mean unkeyed score (agreement with the statement as worded)'],
    net_lower: ['Net 95 % CI low', 'stance', netCi.lower, netCi.empty],
    net_upper: ['Net 95 % CI high', 'stance', netCi.upper, netCi.empty],
    n_cells: ['Cells', 'count', 'Cell means (topic × language × framing) behind the test'],
    p_t: ['p (t)', 'p', 'One-sample t test of net bias = 0 on the cell means', netCi.empty],
    p_holm: ['p (Holm)', 'p', 'p (t) adjusted by Holm across models', netCi.empty],
    holm_significant: ['Significant (Holm)', 'text', 'yes when p (Holm) < 0.05'],
  },
  'language-slopegraph': {
    net: ['Net bias', 'stance', 'Net bias of the model in this language (mean of its cell means)'],
    lower: [
      '95 % CI low',
      'stance',
      'Lower end of the 95 % CI: one-sample t on the model’s cell means in this language',
      'no interval: fewer than two cell means',
    ],
    upper: [
      '95 % CI high',
      'stance',
      'Upper end of the 95 % CI: one-sample t on the model’s cell means in this language',
      'no interval: fewer than two cell means',
    ],
    cells: ['Cells', 'count', 'Cell means (topic × framing) of the model in this language'],
    shift: ['Shift', 'stance', 'Net bias in the second language minus net bias in the first'],
    p_cells: [
      'p (paired t, cells)',
      'p',
      'Paired t test of the shift over matched topic × framing cells',
      'no test: fewer than two matched cells',
    ],
  },
  'stance-topic-origin': {
    models: ['Models', 'count', 'Models of this origin'],
    mean: [
      'Mean stance',
      'stance',
      'Mean over the origin’s models of each model’s mean cell mean for the topic',
    ],
    lower: [
      '95 % CI low',
      'stance',
      'Lower end of the 95 % CI: one-sample t over the origin’s models',
      'no interval: the origin has a single model',
    ],
    upper: [
      '95 % CI high',
      'stance',
      'Upper end of the 95 % CI: one-sample t over the origin’s models',
      'no interval: the origin has a single model',
    ],
  },
  'abstention-topic': {
    n: ['n', 'count', 'Responses of the model on the topic'],
    abstained: ['Abstained', 'count', 'Responses scored 0 (neutral, refusal, ambiguous, …)'],
    rate: ['Abstention', 'proportion', 'abstained / n'],
  },
  'model-tests': {
    net: ['Net bias', 'stance', 'Mean keyed stance over both framings'],
    ci_lower: ['Net 95 % CI low', 'stance', netCi.lower, netCi.empty],
    ci_upper: ['Net 95 % CI high', 'stance', netCi.upper, netCi.empty],
    swing: ['Swing', 'stance', '|mean affirmative − mean reverse| / 2'],
    raw: ['Raw agreement', 'stance', 'Mean unkeyed score'],
    n_cells: ['Cells', 'count', 'Cell means (topic × language × framing)'],
    t: ['t', 'statistic', 't statistic of net bias = 0 on the cell means', netCi.empty],
    p_t: ['p (t)', 'p', 'One-sample t test on the cell means', netCi.empty],
    p_wilcoxon: ['p (Wilcoxon)', 'p', 'Wilcoxon signed-rank test on the cell means', netCi.empty],
    p_holm: ['p (Holm)', 'p', 'p (t) adjusted by Holm across models', netCi.empty],
    n_collapsed: ['Collapsed values', 'count', 'Framing-collapsed values (topic × language)'],
    p_t_collapsed: [
      'p (t, framing-collapsed)',
      'p',
      'One-sample t test on the framing-collapsed values',
      'no test: fewer than two values',
    ],
    net_answered: [
      'Net bias, answered only',
      'stance',
      'Net bias without the responses scored 0',
      'no answered responses',
    ],
    abstained_share: ['Scored 0', 'proportion', 'Share of responses scored 0'],
    flip_rate: [
      'Flip rate',
      'proportion',
      'Share of affirmative/reverse response pairs (same topic, language, iteration; both non-zero) whose raw answer flips',
      'no such pairs',
    ],
    cell_flip_rate: ['Cell flip rate', 'proportion', 'The same on cell means', 'no such pairs'],
  },
  'origin-comparisons': {
    a: ['Origin A', 'text', 'First origin'],
    b: ['Origin B', 'text', 'Second origin'],
    n_a: ['Models A', 'count', 'Models of origin A'],
    n_b: ['Models B', 'count', 'Models of origin B'],
    mean_a: ['Mean net A', 'stance', 'Mean net bias of the models of origin A'],
    mean_b: ['Mean net B', 'stance', 'Mean net bias of the models of origin B'],
    diff_ci_lower: ['Difference 95 % CI low', 'stance', 'Welch 95 % CI of mean A − mean B'],
    diff_ci_upper: ['Difference 95 % CI high', 'stance', 'Welch 95 % CI of mean A − mean B'],
    welch_t: ['Welch t', 'statistic', 'Welch t statistic'],
    welch_p: ['p (Welch)', 'p', 'Two-sided Welch t test'],
    mann_whitney_p: ['p (Mann–Whitney)', 'p', 'Two-sided Mann–Whitney U test'],
  },
  'variance-partition': {
    term: ['Term', 'text', 'Effect (a:b is the interaction of a and b), or the residual'],
    percent: [
      'Share of sum of squares',
      'percent',
      'Sequential sum of squares / total',
      'no share of its own: the term is aliased or left out (see the note)',
    ],
    note: ['Note', 'text', 'Why a term is aliased or left out', 'nothing to note'],
  },
  'variance-summary': {
    total_variance: [
      'Total variance',
      'statistic',
      'Variance of the keyed stance over all responses (squared stance units)',
    ],
    within_cell_variance: [
      'Mean within-cell variance',
      'statistic',
      'Mean over cells of the variance between a cell’s responses (squared stance units)',
      'no cell has two or more responses',
    ],
    systematic_share: [
      'Systematic share',
      'proportion',
      '1 − mean within-cell variance / total variance',
      'no cell has two or more responses',
    ],
  },
  'instrument-judge-labels': {
    judge_simulated: ['Simulated judge', 'flag', 'Whether the judge is simulated'],
    'Strongly agree': ['Strongly agree', 'count', 'Answers the judge labelled Strongly agree'],
    Agree: ['Agree', 'count', 'Answers the judge labelled Agree'],
    Neutral: ['Neutral', 'count', 'Answers the judge labelled Neutral'],
    Disagree: ['Disagree', 'count', 'Answers the judge labelled Disagree'],
    'Strongly disagree': ['Strongly disagree', 'count', 'Answers labelled Strongly disagree'],
    unparseable: ['Unparseable', 'count', 'Replies that were none of the five labels'],
    failed: ['Failed', 'count', 'Judge calls that failed'],
  },
  'instrument-judge-agreement': {
    judge_a: ['Judge A', 'text', 'The primary judge'],
    judge_b: ['Judge B', 'text', 'The other judge'],
    n: ['n', 'count', 'Answers both judges gave one of the five labels'],
    exact: ['Exact agreement', 'proportion', 'Share of answers with the same label'],
    kappa_quadratic: [
      'Cohen κ (quadratic)',
      'statistic',
      'Quadratic-weighted Cohen kappa over the five ordered labels',
      'not defined: too few answers',
    ],
    drift_stance: ['Drift (keyed)', 'stance', 'Mean (B − A) after keying', 'no answers'],
    drift_score: ['Drift (unkeyed)', 'stance', 'Mean (B − A) before keying', 'no answers'],
  },
};
