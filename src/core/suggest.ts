/**
 * "Did you mean …?" for a name a user mistyped: the closest of the known names by edit distance
 * (`licence` → `license`, `rocket.jpeg` → `rocket.jpg`), or nothing when none is close.
 */

/** Levenshtein distance between `a` and `b` (case-insensitive), with transpositions counted once. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [
    i,
    ...new Array<number>(t.length).fill(0),
  ]);
  for (let j = 1; j <= t.length; j++) d[0]![j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[s.length]![t.length]!;
}

/**
 * The known name closest to `name`, when it is close enough to be a likely typo: at most a third
 * of the longer name's length (and at least 1, at most 4 edits). Ties go to the first in `known`.
 *
 * @example
 * closest('licence', ['license', 'credit']); // 'license'
 * closest('zzz', ['license']); // undefined
 */
export function closest(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    if (k === name) continue;
    const dist = editDistance(name, k);
    const limit = Math.min(4, Math.max(1, Math.floor(Math.max(name.length, k.length) / 3)));
    if (dist <= limit && dist < bestD) {
      best = k;
      bestD = dist;
    }
  }
  return best;
}
