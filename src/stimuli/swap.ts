/**
 * The minimal-pair property: the reverse item is the affirmative item with its two outcome terms
 * exchanged and nothing else changed. Templates guarantee it by construction; for sentence pairs
 * written out explicitly these functions check it.
 */

/** A decomposition `affirmative = prefix + first + middle + second + suffix`, reverse with the two exchanged. */
export interface Swap {
  prefix: string;
  first: string;
  middle: string;
  second: string;
  suffix: string;
}

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/**
 * Find two non-empty substrings whose exchange turns `affirmative` into `reverse`, or null if no
 * single exchange does. The common prefix and suffix are taken as long as possible, so the terms
 * found may be shorter than the intended ones when both start or end alike (e.g. "一项…" and
 * "一种…"); the answer to "is this only a swap?" is the same.
 */
export function findSwap(affirmative: string, reverse: string): Swap | null {
  if (affirmative === reverse || affirmative.length !== reverse.length) return null;
  const p = commonPrefixLength(affirmative, reverse);
  let s = 0;
  const n = affirmative.length;
  while (s < n - p && affirmative[n - 1 - s] === reverse[n - 1 - s]) s++;
  const a = affirmative.slice(p, n - s);
  const r = reverse.slice(p, n - s);
  const len = a.length;
  for (let i = 1; i < len; i++) {
    const first = a.slice(0, i);
    if (!r.endsWith(first)) continue;
    for (let j = 1; i + j <= len; j++) {
      const second = a.slice(len - j);
      const middle = a.slice(i, len - j);
      if (r === second + middle + first) {
        return {
          prefix: affirmative.slice(0, p),
          first,
          middle,
          second,
          suffix: affirmative.slice(n - s),
        };
      }
    }
  }
  return null;
}

/** Every start index of `needle` in `hay` (overlapping occurrences included). */
function occurrences(hay: string, needle: string): number[] {
  const out: number[] = [];
  if (!needle) return out;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/**
 * The affirmative with its (single) occurrences of `a` and `b` exchanged, or a reason why that is
 * not defined (a term missing, repeated, or overlapping the other).
 */
export function exchangeTerms(
  affirmative: string,
  a: string,
  b: string,
): { ok: true; text: string; aFirst: boolean } | { ok: false; reason: string } {
  const ia = occurrences(affirmative, a);
  const ib = occurrences(affirmative, b);
  if (ia.length !== 1)
    return {
      ok: false,
      reason: `outcome_a "${a}" occurs ${ia.length} times in the affirmative (expected once)`,
    };
  if (ib.length !== 1)
    return {
      ok: false,
      reason: `outcome_b "${b}" occurs ${ib.length} times in the affirmative (expected once)`,
    };
  const [x, y] = [ia[0]!, ib[0]!];
  const aFirst = x < y;
  const [s1, t1, s2, t2] = aFirst ? [x, a, y, b] : [y, b, x, a];
  if (s1 + t1.length > s2)
    return {
      ok: false,
      reason: `outcome_a "${a}" and outcome_b "${b}" overlap in the affirmative`,
    };
  const text =
    affirmative.slice(0, s1) +
    t2 +
    affirmative.slice(s1 + t1.length, s2) +
    t1 +
    affirmative.slice(s2 + t2.length);
  return { ok: true, text, aFirst };
}

/** A short description of where two strings first differ, for error messages. */
export function firstDifference(expected: string, got: string): string {
  const i = commonPrefixLength(expected, got);
  const show = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 10), i + 20));
  return `first difference at character ${i + 1}: expected …${show(expected)}…, got …${show(got)}…`;
}
