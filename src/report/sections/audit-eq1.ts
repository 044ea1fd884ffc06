/**
 * The audit paper's Eq. 1 on the scored run: logit Pr(Y = 1) = α + γ·1[lang = zh] +
 * δ·1[origin = CN] + τ_paradigm, cluster-robust by entry (the page writes the formula from the
 * terms actually fitted: one γ per language against the reference), for Y = D4 (state-aligned framing, the
 * paper's outcome) and Y = D1 (explicit refusal). Fitted from audit.csv by the function
 * `stimkit analyze logit` uses (`regressTable`), so the table is what that command prints for
 *   analyze logit audit.csv --outcome d4_state_aligned --predictors lang,china_origin,paradigm
 *     --reference lang=en,paradigm=describe --cluster entry --complete
 * A factor with a single level in the run (e.g. every model China-origin) is left out and said
 * so; a fit that fails (separation, singular design) is reported in a sentence naming the term.
 */
import { regressTable, type RegressReport } from '../../analyze/regress.js';
import { tableFromRows, type Table } from '../../analyze/table.js';
import { StimkitError } from '../../core/errors.js';
import type { Cell } from '../../score/types.js';
import type { ReportContext, ReportSection, ReportTable } from '../types.js';
import { auditRows, hasJudge, judgeNote } from './audit-data.js';
import { fullNumber } from '../format.js';

/** The outcomes fitted, in order: the paper's Eq. 1 is D4; D1 is fitted the same way. */
const EQ1_OUTCOMES = [
  { column: 'd4_state_aligned', name: 'D4 state-aligned framing' },
  { column: 'd1_refusal', name: 'D1 explicit refusal' },
] as const;

const PREDICTORS = ['lang', 'china_origin', 'paradigm'] as const;
/** Below this many clusters, cluster-robust standard errors are too small (the report says so). */
const FEW_CLUSTERS = 30;

/** The fit of one outcome: the report of `analyze logit`, or why there is none. */
export interface Eq1Fit {
  outcome: string;
  predictors: string[];
  left_out: string[];
  report: RegressReport | null;
  error: string | null;
  /** why the SEs are model-based: fewer entries (clusters) than coefficients */
  refusedClusters?: string;
}

/** Fit Eq. 1 for each outcome on the rows of audit.csv (factors with one level left out). */
export function fitEq1(table: Table): Eq1Fit[] {
  const levels = (c: string) => new Set(table.rows.map((r) => r[c] ?? '').filter((v) => v !== ''));
  const predictors = PREDICTORS.filter((p) => table.columns.includes(p) && levels(p).size >= 2);
  const left_out = PREDICTORS.filter((p) => !predictors.includes(p));
  const reference: Record<string, string> = {};
  if (levels('lang').has('en')) reference.lang = 'en';
  if (levels('paradigm').has('describe')) reference.paradigm = 'describe';
  return EQ1_OUTCOMES.map(({ column }) => {
    const base = { outcome: column, predictors: [...predictors], left_out: [...left_out] };
    if (predictors.length === 0)
      return { ...base, report: null, error: 'every predictor takes a single value in this run' };
    const params = {
      outcome: column,
      predictors: [...predictors],
      reference,
      interactions: [],
      cluster: 'entry',
      correction: 'statsmodels' as const,
      conf: 0.95,
      complete: true,
    };
    try {
      return { ...base, report: regressTable('logit', table, params), error: null };
    } catch (err) {
      if (!(err instanceof StimkitError)) throw err;
      if (err.code !== 'E_STATS_FEW_CLUSTERS') return { ...base, report: null, error: err.message };
      // fewer entries than coefficients: no clustered SEs; the model-based ones, said so
      const report = regressTable('logit', table, { ...params, cluster: null });
      return { ...base, report, error: null, refusedClusters: err.message };
    }
  });
}

/** The coefficient's symbol for a predictor: γ language, δ China origin, τ paradigm, β else. */
const SYMBOL: Record<string, string> = {
  lang: '\u03b3',
  china_origin: '\u03b4',
  paradigm: '\u03c4',
};

/**
 * The model as fitted, written from its terms: `lang[T.bo]` is γ_bo·1[lang = bo], a 0/1
 * predictor `china_origin` is δ·1[china_origin = 1] (treatment coding: each level against the
 * reference, which has no term).
 */
function eq1Text(terms: readonly string[]): string {
  const parts = terms.flatMap((term) => {
    if (term === 'Intercept') return [];
    const factor = /^([^[]+)\[T\.(.+)\]$/.exec(term);
    if (factor)
      return [`${SYMBOL[factor[1]!] ?? '\u03b2'}_${factor[2]}\u00b71[${factor[1]} = ${factor[2]}]`];
    return [`${SYMBOL[term] ?? `\u03b2_${term}`}\u00b71[${term} = 1]`];
  });
  return `logit Pr(Y = 1) = \u03b1${parts.map((p) => ` + ${p}`).join('')}`;
}

/** The design sentences: the formula of each distinct fitted design, the references and coding. */
function designSentences(fits: Eq1Fit[]): string[] {
  const fitted = fits.filter((f) => f.report);
  const texts = [...new Set(fitted.map((f) => eq1Text(f.report!.result.terms.map((t) => t.term))))];
  const refs = Object.entries(fitted[0]?.report?.params.reference ?? {})
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const formula =
    texts.length === 0
      ? 'The audit paper\u2019s Eq. 1 (logit of Y on language, China origin and paradigm) could not be fitted here (below).'
      : `The audit paper\u2019s Eq. 1 as fitted here: ${texts.join('; for D1: ')}, with treatment coding (references: ${refs || 'the first level of each factor'}; a level without a term is the reference) and standard errors clustered by corpus entry.`;
  return [
    `${formula} Odds ratios are exp(coefficient). Judge misclassification attenuates rates but leaves odds ratios nearly unbiased when rates are small (Appendix G).`,
  ];
}

async function auditTable(ctx: ReportContext): Promise<Table> {
  const t = (await ctx.table('audit.csv'))!;
  const sha = ctx.header.files.find((f) => f.file === 'audit.csv')?.sha256 ?? '';
  return tableFromRows('audit.csv', sha, t.header, t.rows);
}

export const auditEq1Section: ReportSection = {
  id: 'audit-eq1',
  title: 'Language, origin and paradigm (Eq. 1)',
  applies: hasJudge,
  build: async (ctx) => {
    const fits = fitEq1(await auditTable(ctx));
    const rows: Cell[][] = [];
    const paragraphs = [judgeNote(await auditRows(ctx)), ...designSentences(fits)];
    for (const f of fits) {
      const name = EQ1_OUTCOMES.find((o) => o.column === f.outcome)!.name;
      const dropped =
        f.left_out.length > 0
          ? ` ${f.left_out.join(', ')} left out: a single value in this run.`
          : '';
      if (!f.report) {
        paragraphs.push(`${name}: not fitted. ${f.error}${dropped}`);
        continue;
      }
      const r = f.report.result;
      paragraphs.push(
        `${name} (${f.outcome}): n = ${r.nobs} responses${f.report.input.dropped > 0 ? ` (${f.report.input.dropped} without a judge label or a predictor value left out)` : ''}, ${r.nClusters ?? 'no'} entry clusters, ${r.iterations} IRLS iterations.${dropped}`,
      );
      if (f.refusedClusters)
        paragraphs.push(
          `${name}: no cluster-robust SEs: ${f.refusedClusters}. The SEs below are model-based and ignore the clustering by entry; read them as a demonstration of the model, not as evidence.`,
        );
      for (const t of r.terms)
        rows.push([
          f.outcome,
          t.term,
          fullNumber(t.estimate),
          fullNumber(t.se),
          fullNumber(t.oddsRatio),
          fullNumber(t.orLower),
          fullNumber(t.orUpper),
          fullNumber(t.p),
          r.nobs,
          r.nClusters,
        ]);
    }
    const fitted = fits.filter((f) => f.report);
    const first = fitted[0]?.report?.result;
    if (first?.nClusters != null && first.nClusters < FEW_CLUSTERS) {
      paragraphs.push(
        `Only ${first.nClusters} clusters (corpus entries): cluster-robust standard errors are biased downward with so few clusters, so the intervals and p values below are too narrow; read them as a demonstration of the model, not as evidence (the paper has 298 entries).`,
      );
    }
    const tables: ReportTable[] =
      fitted.length === 0
        ? []
        : [
            {
              id: 'audit-eq1',
              title:
                'Eq. 1: odds ratios for Chinese prompts, China-origin models and each paradigm',
              columns: [
                'outcome',
                'term',
                'log_odds',
                'se',
                'odds_ratio',
                'or_lower',
                'or_upper',
                'p',
                'n',
                'clusters',
              ],
              rows,
              n: `n = VLM responses with a judge label${first ? ` (${fitted.map((f) => `${f.outcome} ${f.report!.result.nobs}`).join(', ')}), ${first.nClusters ?? 'no'} clusters (corpus entries)` : ''}`,
              interval:
                first?.nClusters == null
                  ? '95 % Wald CI and two-sided p from model-based SEs (cluster-robust SEs refused: fewer corpus entries than coefficients)'
                  : `95 % Wald CI and two-sided p from cluster-robust (by entry) sandwich SEs, normal reference, small-sample correction ${first?.correction ?? 'statsmodels'} (G/(G\u22121)\u00b7(N\u22121)/(N\u2212K), as statsmodels)`,
            },
          ];
    return { paragraphs, charts: [], tables };
  },
};
