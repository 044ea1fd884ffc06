/**
 * Secrets never leave the process: every text that may reach a file, a log or an error message
 * passes `redact`, which replaces each key (and its base64 and URL-encoded forms, in case a
 * server echoes it that way) by `[REDACTED]`.
 */

/** Replaces the given secrets in text. Secrets shorter than 4 characters are not redacted (they would mangle text). */
export class Redactor {
  private readonly needles: string[];
  constructor(secrets: Iterable<string>) {
    const set = new Set<string>();
    for (const s of secrets) {
      if (!s || s.length < 4) continue;
      set.add(s);
      set.add(Buffer.from(s).toString('base64').replace(/(?<!=)=+$/, ''));
      set.add(encodeURIComponent(s));
      set.add(JSON.stringify(s).slice(1, -1));
    }
    this.needles = [...set].filter((n) => n.length >= 4).sort((a, b) => b.length - a.length);
  }

  /** The text with every secret replaced. */
  redact(text: string): string;
  redact(text: string | null | undefined): string | null | undefined;
  redact(text: string | null | undefined): string | null | undefined {
    if (text === null || text === undefined || this.needles.length === 0) return text;
    let out = text;
    for (const n of this.needles) if (out.includes(n)) out = out.split(n).join('[REDACTED]');
    return out;
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
