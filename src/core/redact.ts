/**
 * Secrets never leave the process: every text that may reach a file, a log or an error message
 * passes `redact`, which replaces by `[REDACTED]` each key and what a server may echo of it:
 *
 * - any piece of 12 or more characters of the key ("Incorrect API key provided: sk-proj-abc…",
 *   a 40-character prefix);
 * - the same of its base64 (standard and URL-safe, with or without padding): of `KEY`, of
 *   `Bearer KEY`, and the characters that only `KEY` decides when a longer string embeds it at
 *   any of the three byte alignments (`user:KEY` of basic auth);
 * - its URL-encoded and JSON-escaped forms.
 *
 * Pieces are found in one pass over the text with a rolling hash of its 12-character windows
 * (checked against the key's windows, then compared): time linear in the text, whatever the key;
 * no regular expression is built from the key. Redact the whole text before any cut (`cut`).
 */
import { StimkitError } from './errors.js';

/** The shortest piece of a secret that is redacted wherever it appears. */
const MIN_PIECE = 12;

const HASH_BASE = 0x01000193;
/** HASH_BASE^(MIN_PIECE-1) mod 2^32: the weight of the character leaving the window. */
const OUT_WEIGHT = (() => {
  let w = 1;
  for (let i = 0; i < MIN_PIECE - 1; i++) w = Math.imul(w, HASH_BASE);
  return w;
})();
const FILTER_BITS = 18;
const FILTER_MASK = (1 << FILTER_BITS) - 1;

/** The polynomial hash of `s[i, i + MIN_PIECE)` (mod 2^32). */
function hashAt(s: string, i: number): number {
  let h = 0;
  for (let k = 0; k < MIN_PIECE; k++) h = (Math.imul(h, HASH_BASE) + s.charCodeAt(i + k)) | 0;
  return h;
}

const urlSafe = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_');

/**
 * The base64 characters that only the bytes of `s` decide when `s` starts at byte alignment
 * 0, 1 or 2 of a longer string (each character carries 6 bits: a character that mixes bits of
 * the bytes around `s` is left out).
 */
function embeddedBase64(s: string): string[] {
  const bytes = Buffer.from(s, 'utf8');
  const out: string[] = [];
  for (let a = 0; a < 3; a++) {
    const enc = Buffer.concat([Buffer.alloc(a), bytes]).toString('base64');
    const rest = (a + bytes.length) % 3; // 1 or 2 bytes left: 1 or 2 characters only they decide
    const end = Math.floor((a + bytes.length) / 3) * 4 + rest;
    out.push(enc.slice([0, 2, 3][a], end));
  }
  return out;
}

/** Every form of a secret that is redacted. */
function formsOf(s: string): string[] {
  const b64 = [s, `Bearer ${s}`].map((t) => Buffer.from(t, 'utf8').toString('base64'));
  const base64 = [...b64, ...b64.map((b) => b.replace(/(?<!=)=+$/, '')), ...embeddedBase64(s)];
  return [
    s,
    encodeURIComponent(s),
    JSON.stringify(s).slice(1, -1),
    ...base64,
    ...base64.map(urlSafe),
  ];
}

/** Replaces the given secrets in text. Secrets shorter than 4 characters are not redacted (they would mangle text). */
export class Redactor {
  /** Forms shorter than MIN_PIECE (a short key's), replaced only whole. */
  private readonly whole: string[];
  /** The MIN_PIECE-character windows of every longer form, by hash. */
  private readonly windows = new Map<number, string[]>();
  /** A bit per hash bucket that has a window (skips the map for almost every position). */
  private readonly filter = new Uint8Array(1 << (FILTER_BITS - 3));

  constructor(secrets: Iterable<string>) {
    const whole = new Set<string>();
    for (const s of secrets) {
      if (!s || s.length < 4) continue;
      for (const f of formsOf(s)) {
        if (f.length >= MIN_PIECE) this.addWindows(f);
        // A short key's whole forms only; the base64 pieces of a longer one are in its windows.
        else if (f.length >= 4 && s.length < MIN_PIECE) whole.add(f);
      }
    }
    this.whole = [...whole].sort((a, b) => b.length - a.length);
  }

  private addWindows(form: string): void {
    for (let i = 0; i + MIN_PIECE <= form.length; i++) {
      const w = form.slice(i, i + MIN_PIECE);
      const h = hashAt(w, 0);
      const list = this.windows.get(h);
      if (!list) this.windows.set(h, [w]);
      else if (!list.includes(w)) list.push(w);
      this.filter[(h & FILTER_MASK) >>> 3]! |= 1 << (h & 7);
    }
  }

  /** The text with every secret replaced. */
  redact(text: string): string;
  redact(text: string | null | undefined): string | null | undefined;
  redact(text: string | null | undefined): string | null | undefined {
    if (text === null || text === undefined) return text;
    let out = this.windows.size > 0 ? this.redactPieces(text) : text;
    for (const n of this.whole) if (out.includes(n)) out = out.split(n).join('[REDACTED]');
    return out;
  }

  /** Replace every run of text covered by windows of a secret (one pass, rolling hash). */
  private redactPieces(text: string): string {
    if (text.length < MIN_PIECE) return text;
    const parts: string[] = [];
    let from = 0; // the text before this is written out (or redacted)
    let runStart = -1;
    let runEnd = -1;
    let h = hashAt(text, 0);
    const last = text.length - MIN_PIECE;
    const filter = this.filter;
    for (let i = 0; ; i++) {
      if ((filter[(h & FILTER_MASK) >>> 3]! & (1 << (h & 7))) !== 0 && this.isWindow(h, text, i)) {
        if (i <= runEnd) runEnd = i + MIN_PIECE;
        else {
          if (runStart >= 0) {
            parts.push(text.slice(from, runStart), '[REDACTED]');
            from = runEnd;
          }
          runStart = i;
          runEnd = i + MIN_PIECE;
        }
      }
      if (i === last) break;
      h =
        (Math.imul((h - Math.imul(text.charCodeAt(i), OUT_WEIGHT)) | 0, HASH_BASE) +
          text.charCodeAt(i + MIN_PIECE)) |
        0;
    }
    if (runStart < 0) return text;
    parts.push(text.slice(from, runStart), '[REDACTED]', text.slice(runEnd));
    return parts.join('');
  }

  private isWindow(h: number, text: string, i: number): boolean {
    const list = this.windows.get(h);
    if (list === undefined) return false;
    for (let k = 0; k < list.length; k++) if (text.startsWith(list[k]!, i)) return true;
    return false;
  }

  /**
   * The text redacted WHOLE, then cut to `max` characters (with `…[truncated, N chars]`): cutting
   * first could split a key at the cut, and the redactor would no longer recognise its first part.
   */
  cut(text: string, max: number): string {
    const red = this.redact(text);
    return red.length > max ? `${red.slice(0, max)}…[truncated, ${red.length} chars]` : red;
  }
}

/**
 * `err` with what a server may have put in it redacted: a StimkitError's message, fix and
 * problems (a field, an expected or a got value quoted from a vendor's file), or another error's
 * message. For errors raised while reading what a server wrote (a batch output file), before they
 * are printed.
 */
export function redactedError(err: unknown, r: Redactor): unknown {
  if (err instanceof StimkitError) {
    const opt = (s: string | undefined) => (s === undefined ? undefined : r.redact(s));
    const problems = err.problems.map((p) => {
      const q = { ...p, message: r.redact(p.message) };
      for (const k of ['file', 'field', 'entry', 'expected', 'got', 'fix'] as const)
        if (q[k] !== undefined) q[k] = opt(q[k]);
      return q;
    });
    return new StimkitError(err.code, r.redact(err.message), {
      problems,
      cause: err.cause,
      exitCode: err.exitCode,
      fix: opt(err.fix),
    });
  }
  if (err instanceof Error) {
    const copy = new Error(r.redact(err.message), { cause: err.cause });
    copy.name = err.name;
    return copy;
  }
  return err;
}
