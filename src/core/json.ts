/**
 * Deterministic JSON for artifacts: same value, same bytes.
 *
 * `artifactJson` keeps the key order the code built (artifacts are built in a fixed order) and ends
 * with a newline; `canonicalJson` is RFC 8785 (JCS) for hashing and for payloads read by other
 * languages. Both reject values JSON cannot carry exactly (NaN, Infinity, undefined in arrays).
 */
import canonicalize from 'canonicalize';

function check(value: unknown, at: string): void {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new Error(`cannot write ${String(value)} to JSON at ${at}`);
  }
  if (Array.isArray(value)) value.forEach((v, i) => check(v, `${at}[${i}]`));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (v !== undefined) check(v, `${at}.${k}`);
  }
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
