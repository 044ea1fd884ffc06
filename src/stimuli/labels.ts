/**
 * Finding response-option labels in text, longest label first, so that a label inside a longer
 * one is not counted: in "强烈不同意" only 强烈不同意 is found (not 不同意 or 同意), in "Discordo
 * totalmente" only that label (not Discordo). Used to check that every suffix lists every option,
 * and exported for the scorer, which parses answers with the same rule.
 */

/** One label found in a text. */
export interface LabelMatch {
  label: string;
  /** Index of the label in the list it came from. */
  index: number;
  /** Character offset in the text. */
  offset: number;
}

/**
 * Scan `text` left to right; at each position take the longest label that matches there
 * (case-sensitive, exact), then continue after it.
 *
 * @example
 * matchLabels('强烈同意, 同意, 不同意, 强烈不同意', ['强烈同意', '同意', '不同意', '强烈不同意']).map((m) => m.index);
 * // [0, 1, 2, 3]
 */
export function matchLabels(text: string, labels: readonly string[]): LabelMatch[] {
  const order = labels
    .map((label, index) => ({ label, index }))
    .filter((l) => l.label.length > 0)
    .sort((a, b) => b.label.length - a.label.length);
  const out: LabelMatch[] = [];
  let i = 0;
  while (i < text.length) {
    const hit = order.find((l) => text.startsWith(l.label, i));
    if (hit) {
      out.push({ label: hit.label, index: hit.index, offset: i });
      i += hit.label.length;
    } else i++;
  }
  return out;
}

/** The labels of `labels` that do not occur in `text` on their own (see `matchLabels`). */
export function missingLabels(text: string, labels: readonly string[]): string[] {
  const found = new Set(matchLabels(text, labels).map((m) => m.index));
  return labels.filter((_, i) => !found.has(i));
}
