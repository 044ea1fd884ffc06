/**
 * `analyzeInstrument(rows)`: every quantity of the instrument paper's analysis (Methods 4.4 and
 * 4.6, Supplementary Tables S2–S4) from scored forced-choice responses. A plain function: the
 * `stimkit analyze instrument` command and the report both call it.
 */
import { StimkitError } from '../../core/errors.js';
import { summariseCells, type CellSummary } from './cells.js';
import {
  abstentionRates,
  originComparisons,
  stanceRegression,
  type AbstentionRate,
  type OriginComparison,
  type StanceRegression,
} from './groups.js';
import { summariseModels, type ModelSummary } from './models.js';
import { languageShift, type LanguageShift } from './shift.js';
import type { InstrumentRow } from './types.js';
import type { BootstrapParams } from '../regress.js';
import { variancePartition, type VariancePartition } from './variance.js';

export type { InstrumentRow } from './types.js';
/** Options of the analysis. */
export interface InstrumentOptions {
  /** languages of the shift (default en → zh) */
  shiftFrom?: string;
  shiftTo?: string;
  /** a wild cluster bootstrap of the OLS of stance (for few clusters) */
  bootstrap?: BootstrapParams | null;
}

/** The result; every list is sorted, so the same rows give the same output. */
export interface InstrumentAnalysis {
  counts: {
    responses: number;
    scored: number;
    missing: number;
    abstained: number;
    models: number;
    topics: number;
    languages: number;
    cells: number;
  };
  cells: Omit<CellSummary, 'stances'>[];
  models: ModelSummary[];
  languageShift: LanguageShift | null;
  originComparisons: OriginComparison[];
  abstention: AbstentionRate[];
  variance: VariancePartition;
  regression: StanceRegression;
  /** what to keep in mind reading the numbers (e.g. too few clusters); empty when nothing */
  warnings: string[];
}

/**
 * Analyse scored instrument responses.
 *
 * @example
 * const a = analyzeInstrument(rows);
 * a.models.map((m) => [m.model, m.net, m.swing, m.cellTest?.pTHolm]);
 */
export function analyzeInstrument(
  rows: readonly InstrumentRow[],
  options: InstrumentOptions = {},
): InstrumentAnalysis {
  const cells = summariseCells(rows);
  if (cells.length === 0) {
    throw StimkitError.fromProblem({
      code: 'E_ANALYZE_EMPTY',
      message: 'there are no scored responses to analyse',
      expected: 'at least one row with a score',
      got: `${rows.length} rows, none scored`,
      fix: 'check the score column',
    });
  }
  const models = summariseModels(cells, rows);
  const regression = stanceRegression(cells, options.bootstrap ?? null);
  const scored = cells.reduce((s, c) => s + c.n, 0);
  return {
    counts: {
      responses: rows.length,
      scored,
      missing: rows.length - scored,
      abstained: cells.reduce((s, c) => s + c.abstained, 0),
      models: models.length,
      topics: new Set(cells.map((c) => c.topic)).size,
      languages: new Set(cells.map((c) => c.lang)).size,
      cells: cells.length,
    },
    cells: cells.map(({ stances: _s, ...rest }) => rest),
    models,
    languageShift: languageShift(cells, options.shiftFrom ?? 'en', options.shiftTo ?? 'zh'),
    originComparisons: originComparisons(models),
    abstention: abstentionRates(cells),
    variance: variancePartition(cells),
    regression,
    warnings: regression.warnings,
  };
}
