/**
 * Which instrument arm to analyse, the one rule `stimkit analyze instrument` and `stimkit report`
 * share, so both print the same numbers: by default the arm with the most responses (ties: the
 * first by name), e.g. `main` before a Portuguese `pt-control`; `all` pools every arm. The shift's
 * default languages are shared too: en → zh when the arm has both, else its first two languages
 * in order of appearance.
 */
import { StimkitError } from '../../core/errors.js';
import { analyzeInstrument, type InstrumentAnalysis } from './index.js';
import type { InstrumentRow } from './types.js';
import type { BootstrapParams } from '../regress.js';

/** An arm and its number of responses (rows). */
export interface ArmCount {
  arm: string;
  responses: number;
}

/** The arms of the rows, most responses first (ties by name); rows without an arm count as ''. */
export function armCounts(rows: readonly InstrumentRow[]): ArmCount[] {
  const byArm = new Map<string, number>();
  for (const r of rows) byArm.set(r.arm ?? '', (byArm.get(r.arm ?? '') ?? 0) + 1);
  return [...byArm]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .map(([arm, responses]) => ({ arm, responses }));
}

/** The default shift languages of rows: en → zh when both occur, else the first two languages seen. */
function defaultShift(rows: readonly InstrumentRow[]): { from: string; to: string } {
  const langs = [...new Set(rows.map((r) => r.lang))];
  return langs.includes('en') && langs.includes('zh')
    ? { from: 'en', to: 'zh' }
    : { from: langs[0] ?? 'en', to: langs[1] ?? 'zh' };
}

/** What `analyzeArm` picked and computed. */
export interface ArmAnalysis {
  /** the analysed arm, `all` when pooled, '' when the rows carry no arm */
  arm: string;
  /** how it was chosen */
  chosen: 'default' | 'given';
  arms: ArmCount[];
  shift: { from: string; to: string };
  rows: InstrumentRow[];
  analysis: InstrumentAnalysis;
}

/**
 * Analyse one arm of the rows (default: the largest; `all`: every arm pooled), with the shared
 * default shift unless `shift` is given.
 */
export function analyzeArm(
  rows: readonly InstrumentRow[],
  options: {
    arm?: string;
    shift?: { from: string; to: string };
    file?: string;
    bootstrap?: BootstrapParams | null;
  } = {},
): ArmAnalysis {
  const arms = armCounts(rows);
  const arm = options.arm ?? arms[0]?.arm ?? '';
  if (arm !== 'all' && !arms.some((a) => a.arm === arm)) {
    throw StimkitError.fromProblem({
      code: 'E_ANALYZE_ARM',
      file: options.file,
      field: 'arm',
      message: `no responses in arm "${arm}"`,
      expected: [...arms.map((a) => a.arm), 'all'].join(', '),
      got: arm,
      fix: 'pass --arm with one of the arms of the table, or --arm all to pool them',
    });
  }
  const mine = arm === 'all' ? [...rows] : rows.filter((r) => (r.arm ?? '') === arm);
  const shift = options.shift ?? defaultShift(mine);
  return {
    arm,
    chosen: options.arm === undefined ? 'default' : 'given',
    arms,
    shift,
    rows: mine,
    analysis: analyzeInstrument(mine, {
      shiftFrom: shift.from,
      shiftTo: shift.to,
      bootstrap: options.bootstrap ?? null,
    }),
  };
}
