/**
 * Detect complete and quasi-complete separation in a logistic regression by linear programming
 * (Albert & Anderson 1984; Konis 2007, as R's detectseparation and safeBinaryRegression). The
 * maximum-likelihood estimate does not exist exactly when some direction β ≠ 0 has
 * xᵢᵀβ ≥ 0 on every row with outcome 1 and xᵢᵀβ ≤ 0 on every row with outcome 0: moving the
 * coefficients along β never lowers the likelihood. Coefficient j has an infinite estimate when
 * such a direction has βⱼ ≠ 0, which two LPs per coefficient decide (max and min βⱼ over those
 * directions, each βⱼ boxed in [−1, 1]). The separation is complete when one direction has every
 * inequality strict. The LPs are solved by HiGHS (the `highs` package, WebAssembly).
 */
import type { LegacyHighs } from 'highs';
import type { Design } from './regression.js';

/** A coefficient whose maximum-likelihood estimate is infinite. */
interface SeparatedTerm {
  term: string;
  /** +∞ or −∞ when only one sign is possible, `±∞` when both are */
  direction: '+∞' | '−∞' | '±∞';
}

/** What `detectSeparation` finds. */
export interface SeparationReport {
  kind: 'complete' | 'quasi-complete' | 'none';
  /** terms with infinite estimates, in design order */
  terms: SeparatedTerm[];
}

/** A value above this (of a boxed coefficient or margin) counts as non-zero. */
const EPS = 1e-7;

type Highs = LegacyHighs;
let solver: Promise<Highs> | undefined;
async function highs(): Promise<Highs> {
  // loaded on first use: a fit without separation never needs the solver
  solver ??= import('highs').then((m) => (m.default as unknown as () => Promise<Highs>)());
  return solver;
}

/** The largest |value| of each design column (1 for a column of zeros). */
function columnScales(d: Design): number[] {
  const scale = new Array<number>(d.k).fill(0);
  for (let i = 0; i < d.n; i++)
    for (let j = 0; j < d.k; j++) scale[j] = Math.max(scale[j]!, Math.abs(d.x[i * d.k + j]!));
  return scale.map((s) => s || 1);
}

/**
 * Each distinct covariate pattern once, with the outcomes seen on it. Each column is scaled to a
 * largest |value| of 1 (which changes no sign of xᵀβ, only βⱼ's size), so the absolute EPS means
 * the same on a covariate of 1e-7 as on one of 1e6.
 */
function patterns(
  d: Design,
  y: readonly number[],
): { x: number[]; ones: boolean; zeros: boolean }[] {
  const scale = columnScales(d);
  const map = new Map<string, { x: number[]; ones: boolean; zeros: boolean }>();
  for (let i = 0; i < d.n; i++) {
    const x = Array.from(d.x.subarray(i * d.k, i * d.k + d.k), (v, j) => v / scale[j]!);
    const key = x.join(',');
    const p = map.get(key) ?? { x, ones: false, zeros: false };
    if (y[i] === 1) p.ones = true;
    else p.zeros = true;
    map.set(key, p);
  }
  return [...map.values()];
}

/** xᵀβ as LP text (`+ 2 b0 - 0.5 b3`); empty for a zero row. */
function linear(x: readonly number[]): string {
  return x
    .map((v, j) => (v === 0 ? '' : `${v < 0 ? '-' : '+'} ${Math.abs(v)} b${j}`))
    .filter((s) => s !== '')
    .join(' ');
}

/** The LP's constraints: the side each pattern's xᵀβ must lie on (both outcomes: = 0). */
function constraints(ps: ReturnType<typeof patterns>, margin: boolean): string[] {
  const out: string[] = [];
  const t = margin ? ' - t' : '';
  ps.forEach((p, i) => {
    if (p.x.every((v) => v === 0)) return;
    if (p.ones && p.zeros) out.push(` c${i}: ${linear(p.x)} = 0`);
    else out.push(` c${i}: ${linear(p.ones ? p.x : p.x.map((v) => -v))}${t} >= 0`);
  });
  return out;
}

function lp(
  sense: 'Maximize' | 'Minimize',
  objective: string,
  rows: string[],
  k: number,
  margin: boolean,
): string {
  const bounds = Array.from({ length: k }, (_, j) => ` -1 <= b${j} <= 1`);
  if (margin) bounds.push(' 0 <= t <= 1');
  return [sense, ` obj: ${objective}`, 'Subject To', ...rows, 'Bounds', ...bounds, 'End'].join(
    '\n',
  );
}

/**
 * Which coefficients of a logit have infinite maximum-likelihood estimates, and whether the
 * separation is complete.
 *
 * @example (await detectSeparation(design, y)).terms // [{ term: 'NV', direction: '+∞' }]
 */
export async function detectSeparation(d: Design, y: readonly number[]): Promise<SeparationReport> {
  const h = await highs();
  const ps = patterns(d, y);
  const rows = constraints(ps, false);
  const value = (sense: 'Maximize' | 'Minimize', j: number): number => {
    const r = h.solve(lp(sense, `b${j}`, rows, d.k, false), { output_flag: false });
    if (r.Status !== 'Optimal') throw new Error(`separation LP: ${String(r.Status)}`);
    return r.Columns[`b${j}`]?.Primal ?? 0;
  };
  const terms: SeparatedTerm[] = [];
  for (let j = 0; j < d.k; j++) {
    const up = value('Maximize', j) > EPS;
    const down = value('Minimize', j) < -EPS;
    if (up || down)
      terms.push({ term: d.names[j]!, direction: up && down ? '±∞' : up ? '+∞' : '−∞' });
  }
  if (terms.length === 0) return { kind: 'none', terms };
  let complete = false;
  if (ps.every((p) => !(p.ones && p.zeros))) {
    const r = h.solve(lp('Maximize', 't', constraints(ps, true), d.k, true), {
      output_flag: false,
    });
    complete = r.Status === 'Optimal' && (r.Columns.t?.Primal ?? 0) > EPS;
  }
  return { kind: complete ? 'complete' : 'quasi-complete', terms };
}
