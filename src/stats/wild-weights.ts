/**
 * The weight vectors of the wild cluster bootstrap: Rademacher (±1) or Webb's six-point
 * distribution (±√½, ±1, ±√1.5), one weight per cluster. Every vector once when there are at
 * most `reps` of them (full enumeration), else `reps` vectors from a counter-based stream: the
 * bytes of SHA-256(`stimkit-wildboot/v1|seed|draw|block`), one bit per Rademacher weight, one byte
 * below 252 per Webb weight (252 = 42·6: no modulo bias). The same seed gives the same vectors on
 * any machine.
 */
import { hash } from 'node:crypto';

/** Bootstrap weights: Rademacher (±1) or Webb's six-point distribution. */
export type WildWeights = 'rademacher' | 'webb';

const WEBB = [-Math.sqrt(1.5), -1, -Math.sqrt(0.5), Math.sqrt(0.5), 1, Math.sqrt(1.5)];

/** The weight vectors: every one (enumeration) or `reps` drawn from the seeded stream. */
export function weightVectors(
  kind: WildWeights,
  g: number,
  reps: number,
  seed: number,
): Float64Array[] {
  const values = kind === 'rademacher' ? [-1, 1] : WEBB;
  const q = values.length;
  const out: Float64Array[] = [];
  if (q ** g <= reps) {
    const total = q ** g;
    for (let b = 0; b < total; b++) {
      const v = new Float64Array(g);
      let rest = b;
      for (let c = 0; c < g; c++) {
        v[c] = values[rest % q]!;
        rest = Math.floor(rest / q);
      }
      out.push(v);
    }
    return out;
  }
  for (let b = 0; b < reps; b++) {
    const v = new Float64Array(g);
    let filled = 0;
    for (let block = 0; filled < g; block++) {
      const bytes = hash('sha256', `stimkit-wildboot/v1|${seed}|${b}|${block}`, 'buffer');
      for (let i = 0; i < bytes.length && filled < g; i++) {
        const byte = bytes[i]!;
        if (q === 2) v[filled++] = values[byte & 1]!;
        else if (byte < 252) v[filled++] = values[byte % 6]!; // 252 = 42·6: no modulo bias
      }
    }
    out.push(v);
  }
  return out;
}
