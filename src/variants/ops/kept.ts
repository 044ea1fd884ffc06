/**
 * Values computed once per key and kept for this thread (a corpus has few image sizes, and each
 * size's tables cost thousands of exp, cos or table-building steps), cleared when `max` keys are
 * held so that the table stays small. Kept values are shared: callers read them, never write.
 */
export function keptPerKey<V>(max = 64): (key: string, make: () => V) => V {
  const kept = new Map<string, V>();
  return (key, make) => {
    if (kept.has(key)) return kept.get(key)!;
    const value = make();
    if (kept.size >= max) kept.clear();
    kept.set(key, value);
    return value;
  };
}
