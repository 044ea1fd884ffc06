/** Human-readable tables for the analyze commands (stderr); --json prints the full reports. */
import type { AgreementReport } from './agreement.js';
import type { LongAgreementReport } from './agreement-long.js';
import type { WildResult } from '../stats/index.js';
import type { ArmAnalysis } from './instrument/arms.js';
import type { InstrumentAnalysis } from './instrument/index.js';
import type { RatesReport } from './rates.js';
import type { RegressReport } from './regress.js';

/** Number with `d` decimals; blank for null/NaN. */
const fx = (v: number | null | undefined, d = 3): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(d);

/** p-value: 3 significant digits, scientific below 0.001. */
export const fp = (p: number | null | undefined): string =>
  // a p below the smallest double (a z beyond ~38) underflows to 0: say so instead of printing 0
  p === null || p === undefined || !Number.isFinite(p)
    ? '—'
    : p === 0
      ? '< 1e-300'
      : p < 0.001
        ? p.toExponential(2)
        : p.toPrecision(3);

/** Align columns of a text table. */
function table(header: string[], rows: string[][]): string {
  const w = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

/** Coefficient table of a logit/OLS fit. */
export function regressHuman(r: RegressReport): string {
  const res = r.result;
  const logit = res.model === 'logit';
  const pct = Math.round(res.conf * 100);
  const head = [
    'term',
    'estimate',
    'SE',
    ...(logit ? ['OR', `OR ${pct}% CI`] : [`${pct}% CI`]),
    'p',
  ];
  const rows = res.terms.map((t) => [
    t.term,
    fx(t.estimate, 4),
    fx(t.se, 4),
    ...(logit
      ? [fx(t.oddsRatio, 3), `[${fx(t.orLower, 3)}, ${fx(t.orUpper, 3)}]`]
      : [`[${fx(t.ciLower, 4)}, ${fx(t.ciUpper, 4)}]`]),
    fp(t.p),
  ]);
  const se =
    res.method === 'firth'
      ? "Firth's penalised likelihood: profile penalised-likelihood intervals, penalised likelihood-ratio p (as R's logistf)"
      : res.nClusters !== null
        ? `cluster-robust SE by ${r.params.cluster} (${res.nClusters} clusters, correction ${res.correction}); ${res.inference} reference distribution`
        : `model-based SE; ${res.inference} reference distribution`;
  const lines = [
    `${res.model} of ${r.params.outcome} on ${res.nobs} rows${r.input.dropped ? ` (${r.input.dropped} incomplete rows left out)` : ''}; ${se}`,
    table(head, rows),
  ];
  lines.push(
    `${res.method === 'firth' ? 'penalised ' : ''}log-likelihood ${fx(res.llf, 3)}${res.rSquared !== undefined ? `, R² ${fx(res.rSquared, 4)}` : `, ${res.iterations} ${res.method === 'firth' ? 'Newton' : 'IRLS'} iterations`}`,
  );
  const lr = (res as { lr?: { statistic: number; df: number; p: number } | null }).lr;
  if (lr)
    lines.push(
      `penalised likelihood-ratio test of every term but the intercept: χ²(${lr.df}) = ${fx(lr.statistic, 3)}, p = ${fp(lr.p)}`,
    );
  if (r.separation && r.separation.kind !== 'none')
    lines.push(
      `separation (${r.separation.kind}): the maximum-likelihood estimate of ${r.separation.terms.map((t) => `${t.term} (${t.direction})`).join(', ')} would be infinite; Firth's estimates are finite`,
    );
  if (r.interactionTest) {
    const l = r.interactionTest;
    lines.push(
      `${res.method === 'firth' ? 'penalised ' : ''}likelihood-ratio test of ${l.added.join(', ')}: χ²(${l.df}) = ${fx(l.statistic, 3)}, p = ${fp(l.p)}`,
    );
  }
  if (r.bootstrap) lines.push(bootstrapHuman(r.bootstrap));
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

/** Rates table. */
export function ratesHuman(r: RatesReport): string {
  const pct = Math.round(r.params.conf * 100);
  const c = r.params.correction;
  const sim = (r.simulated?.rows ?? 0) > 0;
  const head = [
    ...(r.params.by.length ? r.params.by : ['group']),
    'n',
    'successes',
    'rate',
    `Wilson ${pct}% CI`,
    ...(c ? ['corrected', `${pct}% CI (mapped)`] : []),
    ...(sim ? ['simulated'] : []),
  ];
  const rows = r.rows.map((g) => [
    ...(r.params.by.length ? r.params.by.map((b) => g.group[b]!) : ['all']),
    String(g.n),
    String(g.successes),
    fx(g.rate, 4),
    `[${fx(g.lower, 4)}, ${fx(g.upper, 4)}]`,
    ...(g.corrected
      ? [
          `${fx(g.corrected.rate, 4)}${g.corrected.clipped ? ' (clipped)' : ''}`,
          `[${fx(g.corrected.lower, 4)}, ${fx(g.corrected.upper, 4)}]`,
        ]
      : []),
    ...(sim ? [g.simulated ? 'yes' : 'no'] : []),
  ]);
  const note = c
    ? `; corrected by Rogan–Gladen for sensitivity ${c.sensitivity} and specificity ${c.specificity} (Wilson interval mapped through the correction)`
    : '';
  return [
    `rate of ${r.params.outcome} = 1${r.input.dropped ? ` (${r.input.dropped} incomplete rows left out)` : ''}${note}`,
    table(head, rows),
  ].join('\n');
}

/** Agreement summary. */
export function agreementHuman(r: AgreementReport): string {
  const lines = [
    `${r.input.rows} items, ${r.params.raters.length} raters${r.dimension ? `, dimension ${r.dimension}` : ''}, categories ${r.categories.join(', ')} (${r.categorySource === 'format' ? 'from the labels format' : r.categorySource === 'given' ? 'from --categories' : 'as seen'}); Cohen weights ${r.params.weights}`,
    table(
      ['pair', 'n', 'raw agreement', "Cohen's kappa"],
      r.pairs.map((p) => [
        p.raters.join(' × '),
        String(p.n),
        fx(p.rawAgreement, 4),
        fx(p.kappa, 4),
      ]),
    ),
    `all raters agree on ${fx(r.allAgree === null ? null : r.allAgree * 100, 1)}% of ${r.complete} complete items; Fleiss' kappa ${fx(r.fleiss?.kappa, 4)}; Gwet's AC1 ${fx(r.gwetAc1?.ac1, 4)}`,
  ];
  if (r.noDisagreement)
    lines.push(
      r.constant !== null
        ? `raters never disagree: every rating is ${r.constant}, so chance agreement is 1 and the kappas are undefined (—); AC1 counts it as full agreement`
        : 'raters never disagree on an item they both rated',
    );
  if (r.vs) {
    const v = r.vs;
    lines.push(
      `${v.column} vs raters' majority: n = ${v.n} (${v.excluded} excluded), raw agreement ${fx(v.rawAgreement * 100, 1)}%, kappa ${fx(v.kappa, 4)}`,
    );
    lines.push(
      table(
        [`${v.column} \\ majority`, ...v.categories.map(String)],
        v.matrix.map((row, i) => [String(v.categories[i]), ...row.map(String)]),
      ),
    );
    lines.push(
      table(
        ['category', 'precision', 'recall', 'support'],
        v.perCategory.map((c) => [
          String(c.category),
          fx(c.precision, 4),
          fx(c.recall, 4),
          String(c.support),
        ]),
      ),
    );
  }
  return lines.join('\n');
}

/** Agreement per dimension of a long labels CSV. */
export function agreementByDimensionHuman(r: LongAgreementReport): string {
  const parts = r.dimensions.map((d) => `== ${d.dimension}\n${agreementHuman(d.report)}`);
  if (r.skipped.length > 0) parts.push(`no item with two ratings: ${r.skipped.join(', ')}`);
  return parts.join('\n\n');
}

/** Which arm was analysed, and the others: the first line of the instrument summary. */
function armLine(arm: Pick<ArmAnalysis, 'arm' | 'chosen' | 'arms' | 'shift'>): string {
  const all = arm.arms.map((x) => `${x.arm || '(none)'} ${x.responses}`).join(', ');
  const which =
    arm.arm === 'all'
      ? 'every arm pooled (--arm all)'
      : `arm ${arm.arm || '(none)'}${arm.chosen === 'default' ? ' (the arm with the most responses, as the report; --arm ID for another, --arm all to pool)' : ''}`;
  return `${which}; arms in the table: ${all}`;
}

/** The OLS of stance: a table per clustering, or why its clustered SEs were refused, and the bootstrap. */
function stanceRegressionHuman(a: InstrumentAnalysis): string[] {
  const lines: string[] = [];
  for (const f of a.regression.fits) {
    lines.push(`OLS of stance, SE clustered by ${f.clusterBy} (${f.nClusters} clusters):`);
    if (f.refused) lines.push(`  no clustered SEs: ${f.refused}`);
    else
      lines.push(
        table(
          ['term', 'β', 'SE', 'p'],
          f.terms.map((t) => [t.term, fx(t.estimate), fx(t.se), fp(t.p)]),
        ),
      );
    if (f.bootstrap) lines.push(bootstrapHuman(f.bootstrap));
  }
  for (const w of a.warnings) lines.push(`warning: ${w}`);
  return lines;
}

/** Wild cluster bootstrap tests, one row per coefficient. */
function bootstrapHuman(b: readonly WildResult[]): string {
  const first = b[0];
  if (!first) return '';
  const how = `${first.enumerated ? `all ${first.draws}` : String(first.draws)} ${first.weights} weight vectors over ${first.clusters} clusters; p in steps of ${fp(first.smallestP)}`;
  return [
    `wild cluster bootstrap-t, null imposed (${how}):`,
    table(
      ['term', 'estimate', 't', 'bootstrap p', `${Math.round((first.conf ?? 0.95) * 100)}% CI`],
      b.map((x) => [
        x.term,
        fx(x.estimate, 4),
        fx(x.t, 3),
        // no draw as extreme: p is below the step, not 0
        x.p === 0 ? `< ${fp(x.smallestP)}` : fp(x.p),
        x.ci ? `[${fx(x.ci[0], 4)}, ${fx(x.ci[1], 4)}]` : '—',
      ]),
    ),
    ...b.filter((x) => x.note).map((x) => `  ${x.term}: ${x.note}`),
  ].join('\n');
}

/** Instrument summary: per-model table, shift, origin tests, variance, regression. */
export function instrumentHuman(
  a: InstrumentAnalysis,
  arm?: Pick<ArmAnalysis, 'arm' | 'chosen' | 'arms' | 'shift'>,
): string {
  const c = a.counts;
  const lines = [
    ...(arm ? [armLine(arm)] : []),
    `${c.responses} responses (${c.missing} missing, ${c.abstained} scored 0), ${c.models} models, ${c.topics} topics, ${c.languages} languages, ${c.cells} cells`,
    table(
      [
        'model',
        'origin',
        'net',
        'swing',
        'raw',
        'p t(cells)',
        'p W(cells)',
        'p t(collapsed)',
        'Holm',
        'net answered',
        'flip rate',
      ],
      a.models.map((m) => [
        m.model,
        m.origin,
        fx(m.net),
        fx(m.swing),
        fx(m.raw),
        fp(m.cellTest?.pT),
        fp(m.cellTest?.pWilcoxon),
        fp(m.collapsedTest?.pT),
        fp(m.cellTest?.pTHolm),
        fx(m.answeredOnly.net),
        fx(m.flip.responseRate ?? m.flip.cellRate),
      ]),
    ),
  ];
  const s = a.languageShift;
  if (s?.test) {
    const t = s.test;
    lines.push(
      `${s.from}→${s.to} shift: mean ${fx(t.meanShift)} [${fx(t.ci[0])}, ${fx(t.ci[1])}], paired t(${t.df}) = ${fx(t.t, 2)}, p = ${fp(t.pT)}; Wilcoxon p = ${fp(t.pWilcoxon)}; dz = ${fx(t.dz, 2)}; ${s.negative} of ${s.perModel.length} models shift negative`,
    );
  }
  for (const o of a.originComparisons) {
    lines.push(
      `origin ${o.a} (n ${o.nA}) vs ${o.b} (n ${o.nB}): net ${fx(o.meanA)} vs ${fx(o.meanB)}, Welch p = ${fp(o.welch.p)}, Mann–Whitney p = ${fp(o.mannWhitney.p)}${o.answeredOnly ? `; answered-only Welch p = ${fp(o.answeredOnly.welchP)}` : ''}`,
    );
  }
  const v = a.variance;
  const part = (p: typeof v.responseLevel) =>
    p.terms
      .filter((t) => t.percent !== null)
      .map((t) => `${t.term} ${fx(t.percent, 2)}`)
      .concat(`residual ${fx(p.residualPercent, 2)}`)
      .join(', ');
  lines.push(`variance (% of total SS, responses): ${part(v.responseLevel)}`);
  lines.push(`variance (% of total SS, cell means): ${part(v.cellMeans)}`);
  lines.push(
    `systematic share 1 − ${fx(v.meanWithinCellVariance)}/${fx(v.totalVariance)} = ${fx(v.systematicShare * 100, 1)}%`,
  );
  lines.push(...stanceRegressionHuman(a));
  return lines.join('\n');
}
