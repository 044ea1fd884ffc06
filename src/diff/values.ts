/**
 * A structural difference of two JSON values as a list of field paths with both values: objects
 * by key, lists of objects that carry an `id` by that id (`expected_facts[falcon-9].zh`), other
 * lists by position. Used by `stimkit diff` to say which field changed, not which byte.
 */

/** One changed field: its path, and its value on each side (`undefined`: absent on that side). */
export interface FieldChange {
  path: string;
  a: unknown;
  b: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const keyedById = (v: unknown[]): boolean =>
  v.length > 0 && v.every((x) => isObject(x) && typeof x.id === 'string');

function join(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}

/**
 * Every field that differs between `a` and `b`, in a stable order.
 *
 * @example
 * diffValues({ t: { en: 'A', zh: 'B' } }, { t: { en: 'A', zh: 'C' } }); // [{ path: 't.zh', a: 'B', b: 'C' }]
 */
export function diffValues(
  a: unknown,
  b: unknown,
  base = '',
  out: FieldChange[] = [],
): FieldChange[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (keyedById(a) && keyedById(b)) {
      const byA = new Map(a.map((x) => [(x as { id: string }).id, x]));
      const byB = new Map(b.map((x) => [(x as { id: string }).id, x]));
      for (const id of new Set([...byA.keys(), ...byB.keys()]))
        diffValues(byA.get(id), byB.get(id), `${base}[${id}]`, out);
      const orderA = a.map((x) => (x as { id: string }).id).filter((id) => byB.has(id));
      const orderB = b.map((x) => (x as { id: string }).id).filter((id) => byA.has(id));
      if (orderA.join('\n') !== orderB.join('\n'))
        out.push({ path: `${base} (order)`, a: orderA, b: orderB });
      return out;
    }
    if (
      a.every((x) => !isObject(x) && !Array.isArray(x)) &&
      b.every((x) => !isObject(x) && !Array.isArray(x))
    ) {
      if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ path: base, a, b });
      return out;
    }
    for (let i = 0; i < Math.max(a.length, b.length); i++)
      diffValues(a[i], b[i], `${base}[${i}]`, out);
    return out;
  }
  if (isObject(a) && isObject(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort())
      diffValues(a[k], b[k], join(base, k), out);
    return out;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ path: base || '(whole)', a, b });
  return out;
}
