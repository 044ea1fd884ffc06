/**
 * Rows grouped by the values of some columns, for the analyze kinds that summarise a scores table
 * per group (reasoning, pressure).
 */
type Row = Record<string, string>;

/** Text order by UTF-16 code units (as `<`), the same on every machine. */
export const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Group `rows` by the values of `keys`, in sorted key order. */
export function groupBy(rows: readonly Row[], keys: readonly string[]): Array<[string[], Row[]]> {
  const groups = new Map<string, [string[], Row[]]>();
  for (const r of rows) {
    const k = keys.map((c) => r[c] ?? '');
    const id = JSON.stringify(k);
    const g = groups.get(id) ?? [k, []];
    g[1].push(r);
    groups.set(id, g);
  }
  return [...groups.values()].sort(([a], [b]) => byText(JSON.stringify(a), JSON.stringify(b)));
}
