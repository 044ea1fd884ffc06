/**
 * Holm (1979) step-down adjustment, equal to statsmodels `multipletests(method='holm')` and R
 * `p.adjust(method='holm')`.
 */

/**
 * Holm-adjusted p-values, in input order: sort ascending p₍₁…ₘ₎; adj₍ᵢ₎ = max_{j≤i} min(1, (m−j+1)·p₍ⱼ₎).
 * NaN inputs stay NaN and do not count towards m.
 */
export function holm(p: readonly number[]): number[] {
  const idx = p.map((_, i) => i).filter((i) => !Number.isNaN(p[i]!));
  const m = idx.length;
  idx.sort((a, b) => p[a]! - p[b]! || a - b);
  const out = p.map(() => Number.NaN);
  let running = 0;
  idx.forEach((i, rank) => {
    const v = Math.min(1, (m - rank) * p[i]!);
    running = Math.max(running, v);
    out[i] = running;
  });
  return out;
}
