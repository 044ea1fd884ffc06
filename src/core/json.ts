/**
 * Deterministic JSON for artifacts: same value, same bytes.
 *
 * `artifactJson` keeps the key order the code built (artifacts are built in a fixed order) and ends
 * with a newline; `canonicalJson` is RFC 8785 (JCS) for hashing and for payloads read by other
 * languages. Both reject values JSON cannot carry exactly (NaN, Infinity, undefined in arrays).
 */
import canonicalize from 'canonicalize';

/** Throw, naming where, at the first number JSON cannot carry (NaN, ±Infinity). */
function check(value: unknown, at: string): void {
  // The scan without paths first (a lock holds thousands of numbers); paths only to name a bad one.
  if (finite(value)) return;
  if (typeof value === 'number') throw new Error(`cannot write ${String(value)} to JSON at ${at}`);
  if (Array.isArray(value)) value.forEach((v, i) => check(v, `${at}[${i}]`));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (v !== undefined) check(v, `${at}.${k}`);
  }
}

/** Whether every number in `value` is finite. */
function finite(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) {
    for (const v of value) if (!finite(v)) return false;
  } else if (value && typeof value === 'object') {
    for (const k in value) {
      if (!Object.hasOwn(value, k)) continue;
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined && !finite(v)) return false;
    }
  }
  return true;
}

/** Pretty, stable JSON (2-space indent, trailing newline) for lock files. */
export function artifactJson(value: unknown): string {
  check(value, '$');
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * `value` with every object's keys in the order `canonicalJson` writes them (sorted): a record read
 * from a sealed payload file (canonical JSON), written again with `artifactJson`, as that file
 * holds it.
 */
export function canonicalOrder<T>(value: T): T {
  // the same JSON value, parsed back: only the order of its keys differs
  return JSON.parse(canonicalJson(value)) as T;
}

/** RFC 8785 canonical JSON (sorted keys, no whitespace, shortest round-trip numbers). */
export function canonicalJson(value: unknown): string {
  check(value, '$');
  const out = canonicalize(value);
  if (out === undefined) throw new Error('value cannot be canonicalized');
  return out;
}

/** What a parsed JSON value is, for an error's "got": `null`, `an array`, or its `typeof`. */
export function jsonKind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
