/**
 * One language shift as a slopegraph (the instrument paper's Fig. 4 / S3): each model's net bias
 * in the first and the second language, each point with the 95 % interval of that model's net
 * bias in that language (one-sample t on its cell means there), with the across-model paired test
 * of the shift. The model names at the second language are moved apart where they would overlap.
 */
import type { CellSummary } from '../../analyze/instrument/cells.js';
import type { LanguageShift } from '../../analyze/instrument/shift.js';
import type { Cell } from '../../score/types.js';
import { oneSampleT } from '../../stats/index.js';
import { TEXT_COLOUR } from '../chart.js';
import { fmt, fullNumber } from '../format.js';
import type { ReportChart } from '../types.js';
import { listWords, originColours, originOrder, paddedDomain } from './instrument-data.js';

/** The cell fields the slopegraph reads. */
type Cells = ReadonlyArray<Pick<CellSummary, 'model' | 'lang' | 'mean'>>;

/** The 95 % CI of a model's net bias in one language: t on its cell means there (null below 2). */
function langCi(cells: Cells, model: string, lang: string) {
  const means = cells.filter((c) => c.model === model && c.lang === lang).map((c) => c.mean);
  if (means.length < 2) return [null, null] as const;
  const t = oneSampleT(means);
  return [fullNumber(t.ci[0]), fullNumber(t.ci[1])] as const;
}

const verb = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "2 of 3 models are more toward the minus pole in zh than in en; 1 moves the other way." */
export function shiftSentence(
  s: Pick<LanguageShift, 'from' | 'to' | 'negative' | 'positive' | 'perModel'>,
  name: (code: string) => string = (c) => c,
): string {
  const still = s.perModel.length - s.negative - s.positive;
  return `${s.negative} of ${s.perModel.length} model${s.perModel.length === 1 ? '' : 's'} ${s.negative === 1 ? 'is' : 'are'} more toward the minus pole in ${name(s.to)} than in ${name(s.from)}; ${verb(s.positive, 'moves', 'move')} the other way${still > 0 ? ` and ${verb(still, 'does', 'do')} not move` : ''}.`;
}

/** Height of the slopegraph's plot, in px; labels need this many px between them. */
const HEIGHT = 380;
const LABEL_PX = 13;

/**
 * Where each label at the second language is drawn: at its point, except where labels would be
 * closer than `LABEL_PX`; such a cluster is spread `LABEL_PX` apart around its mean (in order),
 * and clusters that then touch are merged, until none do.
 */
export function spreadLabels(values: number[], domain: [number, number]): number[] {
  const gap = ((domain[1] - domain[0]) * LABEL_PX) / HEIGHT;
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v || a.i - b.i);
  // clusters of consecutive labels: the mean of their values, and their count
  let groups = order.map((o) => ({ mean: o.v, n: 1 }));
  const start = (g: { mean: number; n: number }) => g.mean - ((g.n - 1) * gap) / 2;
  for (let merged = true; merged;) {
    merged = false;
    const next: typeof groups = [];
    for (const g of groups) {
      const last = next[next.length - 1];
      if (last && start(g) < start(last) + last.n * gap) {
        next[next.length - 1] = {
          mean: (last.mean * last.n + g.mean * g.n) / (last.n + g.n),
          n: last.n + g.n,
        };
        merged = true;
      } else next.push(g);
    }
    groups = next;
  }
  const out = new Array<number>(values.length);
  let k = 0;
  for (const g of groups)
    for (let j = 0; j < g.n; j++) out[order[k++]!.i] = fullNumber(start(g) + j * gap)!;
  return out;
}

/** Per model and language (first, then second): net bias, its interval, cells, shift, p_cells, label_y. */
function slopeRows(cells: Cells, s: LanguageShift): Cell[][] {
  const rows = s.perModel.flatMap((m) =>
    (
      [
        [s.from, m.netFrom],
        [s.to, m.netTo],
      ] as const
    ).map(([lang, net]): Cell[] => [
      m.model,
      m.origin,
      lang,
      fullNumber(net),
      ...langCi(cells, m.model, lang),
      cells.filter((c) => c.model === m.model && c.lang === lang).length,
      fullNumber(m.shift),
      fullNumber(m.pCells),
      null,
    ]),
  );
  const domain = paddedDomain(rows.flatMap((r) => [r[3], r[4], r[5]] as Array<number | null>));
  const ends = rows.filter((r) => r[2] === s.to);
  spreadLabels(
    ends.map((r) => r[3] as number),
    domain,
  ).forEach((y, i) => (ends[i]![9] = y));
  return rows;
}

/** The slopegraph data's interval sentence, with the across-model test when there is one. */
function slopeInterval(t: LanguageShift['test'], across: string): string {
  const point =
    "Per point: 95 % CI of the model's net bias in that language, one-sample t on its cell means there";
  return t
    ? `${point}. Across models: ${across}, t ${fmt(t.t, 'statistic')}, p ${fmt(t.pT, 'p')}; ${t.pWilcoxon === null ? 'Wilcoxon signed-rank: none (no model shifts: nothing to rank)' : `Wilcoxon signed-rank p ${fmt(t.pWilcoxon, 'p')} (${t.wilcoxonMethod})`}; dz ${fmt(t.dz, 'statistic')}. Per model: paired t over matched topic × framing cells (p_cells)`
    : `${point}. Per model: paired t over matched topic × framing cells (p_cells); fewer than 2 models, so no across-model test`;
}

/** The vega-lite spec: a line per model, interval bars at both ends, labels at the second language. */
function slopeSpec(
  s: LanguageShift,
  subtitle: string[],
  origins: string[],
  yDomain: [number, number],
): Record<string, unknown> {
  const y = { type: 'quantitative', scale: { domain: yDomain, nice: false } };
  return {
    title: { text: `${s.from} → ${s.to}: net bias per model`, subtitle },
    width: 420,
    height: HEIGHT,
    encoding: {
      x: {
        field: 'lang',
        type: 'ordinal',
        sort: [s.from, s.to],
        title: 'language',
        axis: { labelAngle: 0 },
        scale: { type: 'band', paddingInner: 0.55, paddingOuter: 0.25 },
      },
      xOffset: { field: 'model', type: 'nominal', scale: { type: 'point', padding: 0.5 } },
      y: { field: 'net', ...y, title: 'net bias (keyed stance)' },
      color: {
        field: 'origin',
        type: 'nominal',
        title: 'origin',
        scale: { domain: origins, range: originColours(origins) },
      },
      detail: { field: 'model' },
    },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 1.5 },
        encoding: { y: { field: 'lower', ...y }, y2: { field: 'upper' } },
      },
      { mark: { type: 'line', strokeWidth: 1.5 } },
      { mark: { type: 'point', filled: true, size: 50 } },
      {
        transform: [{ filter: `datum.lang === ${JSON.stringify(s.to)}` }],
        mark: { type: 'text', align: 'left', dx: 10, fontSize: 11, color: TEXT_COLOUR },
        encoding: {
          y: { field: 'label_y', ...y },
          text: { field: 'model' },
          color: { value: TEXT_COLOUR },
        },
      },
    ],
  };
}

/** The chart of one shift: `id` names its files; `name` gives a language's name. */
export function slopeChart(
  id: string,
  cells: Cells,
  s: LanguageShift,
  name: (code: string) => string,
): ReportChart {
  const rows = slopeRows(cells, s);
  const noCi = [...new Set(rows.filter((r) => r[4] === null).map((r) => String(r[0])))];
  const origins = originOrder(s.perModel.map((m) => m.origin));
  const t = s.test;
  const perLang = Math.round(Math.max(0, ...rows.map((r) => Number(r[6]))));
  const n = `n = ${s.perModel.length} models; each language's net bias from up to ${perLang} cell means per model`;
  const across = t
    ? `mean shift ${fmt(t.meanShift, 'stance')}, 95 % CI ${fmt(t.ci[0], 'stance')} to ${fmt(t.ci[1], 'stance')} (paired t across models)`
    : 'no across-model test (fewer than 2 models)';
  const bars = noCi.length
    ? `bars: 95 % CI per model and language; no bar for ${listWords(noCi)} (fewer than 2 cell means)`
    : 'bars: 95 % CI per model and language (t on its cell means)';
  const yDomain = paddedDomain(rows.flatMap((r) => [r[3], r[4], r[5]] as Array<number | null>));
  return {
    id,
    title: `Net bias in ${name(s.from)} and ${name(s.to)} per model`,
    alt: `Slopegraph of each model's net bias in ${name(s.from)} and in ${name(s.to)}, with 95 % intervals`,
    data: {
      id,
      title: `Net bias per model and language (${s.from} → ${s.to})`,
      columns: [
        'model',
        'origin',
        'lang',
        'net',
        'lower',
        'upper',
        'cells',
        'shift',
        'p_cells',
        'label_y',
      ],
      rows,
      n,
      interval: slopeInterval(t, across),
    },
    spec: slopeSpec(s, [n, across, bars], origins, yDomain),
  };
}
