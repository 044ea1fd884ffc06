/**
 * D6 response length: the raw character count and the two-pass cleaner of the VLM audit paper's
 * Appendix O ("D6 response-length cleaning protocol"). The cleaner never changes a stored
 * response; it only decides which characters are counted.
 *
 * Pass 1 removes markdown markup in the paper's order (images, links, fenced code, inline code,
 * bold, CJK-safe italic, ATX headings, bullets, ordered-list markers, blockquote markers,
 * horizontal rules, residual HTML tags). Pass 2 removes bare section-label lines, the trailing
 * summary block (English and Chinese openers), collapses blank lines and strips per-line trailing
 * whitespace. Characters are Unicode code points (what Python's `len` counts), not UTF-16 units.
 *
 * Readings where the appendix is not explicit, kept conservative like the appendix asks:
 * - a label line is one run of word characters (Latin or CJK letters, digits, `_`) with an optional
 *   ASCII or full-width colon and nothing else, so "Background:" and "背景：" go but
 *   "Key details:" (two words) stays;
 * - the trailing summary is looked for before label lines are dropped, since its usual opener
 *   ("Summary:") is itself label-shaped;
 * - the trailing summary starts at the LAST line that opens with an opener word, and only when
 *   some text precedes that line (a one-line "Overall, …" answer is content, not scaffolding);
 * - English openers match case-insensitively on a word boundary ("Notebook" is not "Note").
 */

import { replaceFences, replaceHeadings, replaceLinks } from './clean-scan.js';

/** Letters of the CJK scripts and CJK punctuation/full-width forms: the italic rule's "CJK". */
const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef`;

/** Pass 1, rule 6: `*x*` → `x` only between non-asterisk, non-word, non-CJK boundaries, inner ASCII-alphanumeric at both ends. */
const ITALIC = new RegExp(
  String.raw`(?<![*\p{L}\p{N}_${CJK}])\*([A-Za-z0-9](?:[^*\n]*?[A-Za-z0-9])?)\*(?![*\p{L}\p{N}_${CJK}])`,
  'gu',
);

/** A rule written as one regular expression: linear as written (eslint-plugin-regexp checks). */
const regexRule =
  (pattern: RegExp, replace: string) =>
  (text: string): string =>
    text.replace(pattern, replace);

/**
 * The ordered markdown rules of pass 1. Images, links, fenced code and headings are forward scans
 * (clean-scan.ts) that give what their regular expressions give, in linear time.
 */
const PASS1_RULES: ReadonlyArray<{ name: string; apply: (text: string) => string }> = [
  { name: 'image', apply: (text) => replaceLinks(text, '![') },
  { name: 'link', apply: (text) => replaceLinks(text, '[') },
  { name: 'fenced-code', apply: replaceFences },
  { name: 'inline-code', apply: regexRule(/`([^`\n]+)`/g, '$1') },
  { name: 'bold-asterisk', apply: regexRule(/\*\*([^\n]+?)\*\*/g, '$1') },
  { name: 'bold-underscore', apply: regexRule(/__([^\n]+?)__/g, '$1') },
  // Linear though built at run time (the plugin cannot read it): every try starts at a `*` and
  // stops at the next `*` or line feed.
  { name: 'italic', apply: regexRule(ITALIC, '$1') },
  { name: 'heading', apply: replaceHeadings },
  { name: 'bullet', apply: regexRule(/^([ \t]*)[-*+][ \t]+/gm, '$1') },
  { name: 'ordered', apply: regexRule(/^([ \t]*)\d+\.[ \t]+/gm, '$1') },
  { name: 'blockquote', apply: regexRule(/^[ \t]*(?:>[ \t]?)+/gm, '') },
  { name: 'rule', apply: regexRule(/^[ \t]*(?:-{3,}|\*{3,})[ \t]*$/gm, '') },
  { name: 'html', apply: regexRule(/<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g, '') },
];

/**
 * `f`, remembering its last answer: scoring a reply cleans it three times (D6, and the lexical
 * refusal and short-response baselines), a 4 MiB reply in about a second each.
 */
function rememberLast(f: (text: string) => string): (text: string) => string {
  let input: string | undefined;
  let output = '';
  return (text) => {
    if (text !== input) {
      output = f(text);
      input = text;
    }
    return output;
  };
}

/** Pass 1: markdown markup removed, every information-carrying character kept. */
export const stripMarkdown = rememberLast((text) => {
  let out = text.replace(/\r\n?/g, '\n');
  for (const rule of PASS1_RULES) out = rule.apply(out);
  return out;
});

/** Sentence-ending punctuation, ASCII and CJK. */
const SENTENCE_END = /[.!?。！？]/u;
/** A bare label: one run of word characters (Latin or CJK), optionally a colon. */
const LABEL_ONLY = /^[\p{L}\p{N}_]+[:：]?$/u;

/** Pass 2, rule 1: is this line (after pass 1) a bare section label? */
export function isLabelLine(line: string): boolean {
  const t = line.trim();
  if (t.length === 0 || charCount(t) > 30) return false;
  if (SENTENCE_END.test(t)) return false;
  return LABEL_ONLY.test(t);
}

/** English openers of a trailing summary block (case-insensitive, whole word). */
const SUMMARY_OPENERS_EN = ['In summary', 'Summary', 'Overall', 'Conclusion', 'Note'] as const;
/** Chinese openers: 总结 (zongjie), 小结 (xiaojie), 概要 (gaiyao), 综上所述, 总而言之. */
const SUMMARY_OPENERS_ZH = ['综上所述', '总而言之', '总结', '小结', '概要'] as const;

/** Built at run time (the plugin cannot read it), checked by hand: anchored at the line's start, so linear. */
const OPENER = new RegExp(
  String.raw`^\s*(?:(?:${SUMMARY_OPENERS_EN.join('|')})(?![\p{L}\p{N}_])|(?:${SUMMARY_OPENERS_ZH.join('|')}))`,
  'iu',
);

/** Pass 2, rule 2: does this line open a summary block? */
export function isSummaryOpener(line: string): boolean {
  return OPENER.test(line);
}

/** `/\s/` of one code unit (ASCII without the expression). */
export function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c > 0x7f && /\s/.test(String.fromCharCode(c)));
}

/** ASCII letters that can start an opener (under case folding `ſ` is an `s`, but it is not ASCII). */
const OPENER_STARTS = new Set([...'icnosICNOS'].map((c) => c.charCodeAt(0)));

/** The line of `text` from `a` to `b` is a summary opener (most lines are ruled out without the expression). */
function opensSummaryAt(text: string, a: number, b: number): boolean {
  let i = a;
  while (i < b && isSpace(text.charCodeAt(i))) i++;
  const c = text.charCodeAt(i);
  if (i === b || (c < 0x80 && !OPENER_STARTS.has(c))) return false;
  return isSummaryOpener(text.slice(a, b));
}

/**
 * Pass 2: label lines and the trailing summary removed, blank lines collapsed, trailing spaces
 * stripped. What `lines.map((l) => l.trimEnd()).join('\n')` with `/\n{2,}/g` made one line feed
 * and line feeds at both ends removed gives: the lines not blank after `trimEnd`, joined.
 */
export const stripScaffold = rememberLast((text) => {
  // Line starts (a line is what `split('\n')` gives).
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const end = (k: number) => (k + 1 < starts.length ? starts[k + 1]! - 1 : text.length);
  // The trailing block is found first: its opener ("Summary:") is itself label-shaped.
  let kept = starts.length;
  for (let k = starts.length - 1; k >= 0; k--) {
    if (!opensSummaryAt(text, starts[k]!, end(k))) continue;
    if (k > 0 && /\S/.test(text.slice(0, starts[k]))) kept = k;
    break;
  }
  const parts: string[] = [];
  for (let k = 0; k < kept; k++) {
    const line = trimmedEnd(text, starts[k]!, end(k));
    if (line !== '' && !isLabelLine(line)) parts.push(line);
  }
  return parts.join('\n');
});

/** `text.slice(a, b).trimEnd()`, without copying a long run of trailing blanks first. */
function trimmedEnd(text: string, a: number, b: number): string {
  let e = b;
  while (e > a && isSpace(text.charCodeAt(e - 1))) e--;
  return text.slice(a, e);
}

/** Both passes: the deep-stripped text of Appendix O. */
export function cleanResponse(text: string): string {
  return stripScaffold(stripMarkdown(text));
}

/**
 * Characters as Unicode code points: what `Array.from(text).length` counts (a lone surrogate is
 * one), without building the array.
 */
export function charCount(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) continue;
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) {
      n--;
      i++;
    }
  }
  return n;
}

/** The three accountings of Table A17: raw, markdown-stripped, deep-stripped (code points). */
export interface Lengths {
  raw: number;
  markdown: number;
  clean: number;
}

/** D6 for one response under all three accountings. */
export function responseLengths(text: string): Lengths {
  const md = stripMarkdown(text);
  return { raw: charCount(text), markdown: charCount(md), clean: charCount(stripScaffold(md)) };
}
