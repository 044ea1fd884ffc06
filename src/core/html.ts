/**
 * HTML that escapes by default: the one way stimkit's pages (report, review, the rater app, the
 * browser) put text into markup. Model responses, judge rationales and manifest fields are
 * untrusted; a value interpolated into an `html` template is escaped unless it is itself `Html`
 * (another template's result, or a string the caller vouches for with `trusted`).
 *
 * ```ts
 * const row = html`<tr><td>${item.response}</td></tr>`; // '<img …>' becomes '&lt;img …&gt;'
 * const page = html`<table>${rows}</table>`; // arrays of Html are joined without escaping
 * ```
 *
 * Escaping covers element content and quoted attribute values (`"` and `'` are escaped). It does
 * not make a value safe inside `<script>`, `<style>`, an unquoted attribute, or a URL attribute
 * (`href`, `src`): check URLs with `safeUrl` first.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069). */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/**
 * Bidi controls written as visible text (`[U+202E]`): an override in a model name or a manifest
 * field would otherwise reorder what the reader sees ("exe.txt" shown for "txt.exe").
 */
export function showBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `[U+${c.codePointAt(0)!.toString(16).toUpperCase()}]`);
}

/** Escape text for HTML element content and quoted attribute values (bidi controls made visible). */
export function escapeHtml(value: unknown): string {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- any interpolated value is shown as a template literal shows it; objects get no special form here
  return showBidiControls(String(value ?? '')).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Markup that is already safe to insert as is. */
export class Html {
  /** Only `html` and `trusted` make these. */
  private constructor(readonly markup: string) {}

  /** @internal */
  static of(markup: string): Html {
    return new Html(markup);
  }

  toString(): string {
    return this.markup;
  }
}

/** A value an `html` template accepts: text (escaped), Html (as is), lists of them, or nothing. */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.markup;
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map((v: HtmlValue) => render(v)).join('');
  return escapeHtml(value);
}

/** A template whose interpolations are escaped unless they are `Html`. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return Html.of(out);
}

/**
 * Markup the caller vouches for (stimkit's own CSS, an SVG stimkit rendered): inserted unescaped.
 * Never pass text that came from a file, a model or a request.
 */
export function trusted(markup: string): Html {
  return Html.of(markup);
}

/** The URL if it is an absolute http(s) URL, else null: the only links a page makes from data. */
export function safeUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}
