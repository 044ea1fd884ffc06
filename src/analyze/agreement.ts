/**
 * `stimkit analyze agreement`: raw agreement and Cohen's kappa per pair of raters, Fleiss' kappa
 * and Gwet's AC1 over all raters; with --vs, the confusion matrix, raw agreement, precision and
 * recall of one column (e.g. an LLM judge) against the raters' majority (audit paper, Figure A1
 * and Table A5). Empty cells are missing ratings.
 */
import { StimkitError } from '../core/errors.js';
import {
  cohenKappa,
  fleissKappa,
  gwetAc1,
  ratingCounts,
  sortedCategories,
  type KappaWeights,
  type Label,
} from '../stats/index.js';
import { agreementCategories, dimensionOf } from './agreement-categories.js';
import { requireColumns, type Table } from './table.js';

/** One pair of raters. */
interface PairAgreement {
  raters: [string, string];
  /** items rated by both */
  n: number;
  rawAgreement: number;
  kappa: number;
}

/** The judge-vs-majority comparison. */
interface VsMajority {
  column: string;
  /** items with a rating in the column and a strict majority among the raters */
  n: number;
  /** items left out: no strict majority (a tie) or no rating in the column */
  excluded: number;
  categories: Label[];
  /** matrix[i][j] = items the column put in categories[i] and the majority in categories[j] */
  matrix: number[][];
  rawAgreement: number;
  kappa: number;
  /** per category, one-vs-rest: precision = matrix[k][k]/row k, recall = matrix[k][k]/column k (null when 0/0) */
  perCategory: {
    category: Label;
    precision: number | null;
    recall: number | null;
    support: number;
  }[];
}

/** What `analyze agreement` returns. */
export interface AgreementReport {
  format: 'stimkit.analyze.agreement';
  version: 1;
  input: { file: string; sha256: string; rows: number };
  params: { raters: string[]; vs: string | null; weights: KappaWeights };
  /** the labels dimension the raters label (e.g. d4_state_aligned), when known */
  dimension: string | null;
  /** where the categories come from: --categories, the labels format, or the labels seen */
  categorySource: 'given' | 'format' | 'seen';
  categories: Label[];
  /**
   * true when no two raters ever disagree on an item they both rated; with a single label used
   * throughout (`constant`), chance agreement is 1 and the kappas are undefined (null), not an error
   */
  noDisagreement: boolean;
  constant: Label | null;
  pairs: PairAgreement[];
  /** items rated by every rater, and the share where all agree */
  complete: number;
  allAgree: number | null;
  /** over complete items; null with fewer than 2 complete items */
  fleiss: { kappa: number; pBar: number; pE: number } | null;
  /** null with a single category (no category list to judge chance by) */
  gwetAc1: { ac1: number; pa: number; pe: number } | null;
  vs: VsMajority | null;
}

const toLabel =
  (numeric: boolean) =>
  (v: string): Label | null =>
    v === '' ? null : numeric ? Number(v) : v;

/** Strict majority label of the present ratings, or null. */
function majority(ratings: readonly (Label | null)[]): Label | null {
  const present = ratings.filter((v): v is Label => v !== null);
  const counts = new Map<Label, number>();
  for (const v of present) counts.set(v, (counts.get(v) ?? 0) + 1);
  for (const [v, c] of counts) if (c * 2 > present.length) return v;
  return null;
}

/** Agreement among `raters` (and of `vs` against their majority). */
export function agreementTable(
  table: Table,
  params: {
    raters: string[];
    vs?: string | null;
    weights?: KappaWeights;
    /** the full category list (--categories) */
    categories?: readonly string[];
    /** the labels dimension (--dimension), else read from the rater columns */
    dimension?: string;
  },
): AgreementReport {
  const { raters } = params;
  const vsCol = params.vs ?? null;
  const weights = params.weights ?? 'none';
  if (raters.length < 2)
    throw StimkitError.usage(
      'E_ANALYZE_RATERS',
      `--raters needs at least two columns (got ${raters.join(', ') || 'none'})`,
      'list two or more rater columns of the table, comma-separated: --raters a,b',
    );
  requireColumns(table, [...raters, ...(vsCol ? [vsCol] : [])], 'analyze agreement');
  const all = table.rows
    .flatMap((r) => [...raters, ...(vsCol ? [vsCol] : [])].map((c) => r[c]!))
    .filter((v) => v !== '');
  const numeric = all.every((v) => Number.isFinite(Number(v)));
  const conv = toLabel(numeric);
  const ratings = table.rows.map((r) => raters.map((c) => conv(r[c]!)));
  const seen = all.map((v) => (numeric ? Number(v) : v));
  const dimension = params.dimension ?? dimensionOf(raters);
  const fromFormat = agreementCategories(seen, {
    given: params.categories,
    dimension,
    file: table.file,
  });
  const categories = fromFormat ?? sortedCategories(seen);
  const categorySource = params.categories ? 'given' : fromFormat ? 'format' : 'seen';
  const pairs = pairwiseKappas(raters, ratings, categories, weights);
  const complete = ratings.filter((r) => r.every((v) => v !== null));
  const fl = complete.length >= 2 ? fleissKappa(ratingCounts(complete, categories).counts) : null;
  const g = categories.length >= 2 ? gwetAc1(ratingCounts(ratings, categories).counts) : null;
  const distinct = new Set(all);
  const noDisagreement = ratings.every((r) => {
    const present = r.filter((v) => v !== null);
    return present.every((v) => v === present[0]);
  });
  const vs = vsCol ? vsMajority(table, vsCol, ratings, { conv, categories, weights }) : null;
  return {
    format: 'stimkit.analyze.agreement',
    version: 1,
    input: { file: table.file, sha256: table.sha256, rows: table.rows.length },
    params: { raters, vs: vsCol, weights },
    dimension,
    categorySource,
    categories,
    noDisagreement,
    constant: distinct.size === 1 ? conv([...distinct][0]!) : null,
    pairs,
    complete: complete.length,
    allAgree:
      complete.length > 0
        ? complete.filter((r) => r.every((v) => v === r[0])).length / complete.length
        : null,
    fleiss: fl ? { kappa: fl.kappa, pBar: fl.pBar, pE: fl.pE } : null,
    gwetAc1: g ? { ac1: g.ac1, pa: g.pa, pe: g.pe } : null,
    vs,
  };
}

/** Cohen's kappa of each pair of raters, over the items both rated. */
function pairwiseKappas(
  raters: string[],
  ratings: (Label | null)[][],
  categories: Label[],
  weights: KappaWeights,
): PairAgreement[] {
  const pairs: PairAgreement[] = [];
  for (let a = 0; a < raters.length; a++) {
    for (let b = a + 1; b < raters.length; b++) {
      const both = ratings.filter((r) => r[a] !== null && r[b] !== null);
      if (both.length === 0) continue;
      const k = cohenKappa(
        both.map((r) => r[a]!),
        both.map((r) => r[b]!),
        { categories, weights },
      );
      pairs.push({
        raters: [raters[a]!, raters[b]!],
        n: both.length,
        rawAgreement: k.po,
        kappa: k.kappa,
      });
    }
  }
  return pairs;
}

/** The `vs` column against the raters' strict majority: confusion matrix, kappa, per category. */
function vsMajority(
  table: Table,
  vsCol: string,
  ratings: (Label | null)[][],
  how: { conv: (v: string) => Label | null; categories: Label[]; weights: KappaWeights },
): VsMajority {
  const { conv, categories, weights } = how;
  const pairsVs: [Label, Label][] = [];
  table.rows.forEach((r, i) => {
    const j = conv(r[vsCol]!);
    const m = majority(ratings[i]!);
    if (j !== null && m !== null) pairsVs.push([j, m]);
  });
  if (pairsVs.length === 0) {
    throw StimkitError.fromProblem({
      code: 'E_ANALYZE_NO_MAJORITY',
      file: table.file,
      field: vsCol,
      message:
        'no item has both a rating in the --vs column and a strict majority among the raters',
      expected: 'items with a majority label',
      got: 'none',
      fix: 'check the rater columns',
    });
  }
  const q = categories.length;
  const idx = (v: Label) => categories.findIndex((c) => c === v);
  const matrix = Array.from({ length: q }, () => new Array<number>(q).fill(0));
  for (const [j, m] of pairsVs) matrix[idx(j)]![idx(m)]! += 1;
  const k = cohenKappa(
    pairsVs.map((p) => p[0]),
    pairsVs.map((p) => p[1]),
    { categories, weights },
  );
  return {
    column: vsCol,
    n: pairsVs.length,
    excluded: table.rows.length - pairsVs.length,
    categories,
    matrix,
    rawAgreement: k.po,
    kappa: k.kappa,
    perCategory: categories.map((c, i) => {
      const row = matrix[i]!.reduce((s, v) => s + v, 0);
      const col = matrix.reduce((s, r) => s + r[i]!, 0);
      return {
        category: c,
        precision: row > 0 ? matrix[i]![i]! / row : null,
        recall: col > 0 ? matrix[i]![i]! / col : null,
        support: col,
      };
    }),
  };
}
