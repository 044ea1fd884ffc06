/**
 * D6 response length: the raw character count and the two-pass cleaner of the VLM audit paper's
 * Appendix O ("D6 response-length cleaning protocol"). The cleaner never changes a stored
 * response; it only decides which characters are counted.
 *
 * Pass 1 removes markdown markup in the paper's order (images, links, fenced code, inline code,
 * bold, CJK-safe italic, ATX headings, bullets, ordered-list markers, blockquote markers,
 * horizontal rules, residual HTML tags). Pass 2 removes bare section-label lines, the trailing
 * summary block (the openers of the response's language pack and English's), collapses blank lines and strips per-line trailing
 * whitespace. Characters are Unicode code points (what Python's `len` counts), not UTF-16 units.
 *
 * Readings where the appendix is not explicit, kept conservative like the appendix asks:
 * - a label line is one run of word characters (letters and their combining marks, digits, `_`,
 *   and the pack's inner characters such as the Tibetan tsheg, at most `max_inner` of them) with
 *   an optional label end (`:`, `：`, `།`) and nothing else, so "Background:", "背景：" and
 *   "སྤྱི་བསྡོམས།" go but "Key details:" (two words) stays;
 * - the trailing summary is looked for before label lines are dropped, since its usual opener
 *   ("Summary:") is itself label-shaped;
 * - the trailing summary starts at the LAST line that opens with an opener word, and only when
 *   some text precedes that line (a one-line "Overall, …" answer is content, not scaffolding);
 * - openers match case-insensitively, on a word boundary where the pack says so ("Notebook" is
 *   not "Note").
 */

import { replaceFences, replaceHeadings, replaceLinks } from './clean-scan.js';
import { classChars, packFor, type LoadedPack } from '../languages/load.js';
import type { LanguagePack } from '../languages/schema.js';

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
function rememberLast<R>(
  f: (text: string, rules: R) => string,
): (text: string, rules: R) => string {
  let input: string | undefined;
  let inputRules: R | undefined;
  let output = '';
  return (text, rules) => {
    if (text !== input || rules !== inputRules) {
      output = f(text, rules);
      input = text;
      inputRules = rules;
    }
    return output;
  };
}

/** Pass 1: markdown markup removed, every information-carrying character kept. */
export const stripMarkdown: (text: string) => string = rememberLast<void>((text) => {
  let out = text.replace(/\r\n?/g, '\n');
  for (const rule of PASS1_RULES) out = rule.apply(out);
  return out;
});

/**
 * The pass 2 rules of one language (its pack's `summary` and `headings`, with English's: models
 * often answer in English): which lines open a summary, which are bare labels.
 */
export interface ScaffoldRules {
  /** Anchored at the line's start, so linear though built at run time (checked by hand). */
  opener: RegExp;
  /** ASCII code units an opener can start with (most lines are ruled out without the expression). */
  openerStarts: ReadonlySet<number>;
  /** A bare label once its label end is cut: letters, marks, digits, `_` and the pack's inner characters. */
  label: RegExp;
  labelEnds: readonly string[];
  /** Characters that make a line a sentence rather than a label. */
  sentenceEnd: RegExp;
  inner: readonly string[];
  maxInner: number | null;
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The pass 2 rules of `packs` (the trial language's, then English's). */
function scaffoldRules(packs: readonly LanguagePack[]): ScaffoldRules {
  const alternatives = packs.map((p) => {
    const words = `(?:${p.summary!.openers.map(escapeRe).join('|')})`;
    return p.summary!.whole_word ? `${words}(?![\\p{L}\\p{M}\\p{N}_])` : words;
  });
  const openers = packs.flatMap((p) => p.summary!.openers);
  const starts = new Set<number>();
  for (const o of openers)
    for (const c of [o[0]!.toLowerCase(), o[0]!.toUpperCase()])
      if (c.charCodeAt(0) < 0x80) starts.add(c.charCodeAt(0));
  const inner = [...new Set(packs.flatMap((p) => p.headings!.inner))];
  const ends = packs.flatMap((p) => [...p.sentence_ends.before_space, ...p.sentence_ends.anywhere]);
  const maxInner = packs.map((p) => p.headings!.max_inner).find((m) => m !== undefined);
  return {
    opener: new RegExp(String.raw`^\s*(?:${alternatives.join('|')})`, 'iu'),
    openerStarts: starts,
    label: new RegExp(String.raw`^[\p{L}\p{M}\p{N}_${classChars(inner)}]+$`, 'u'),
    labelEnds: [...new Set(packs.flatMap((p) => p.headings!.label_ends))],
    sentenceEnd: new RegExp(`[.!?。！？${classChars([...new Set(ends)])}]`, 'u'),
    inner,
    maxInner: maxInner ?? null,
  };
}

const scaffoldSeen = new Map<LanguagePack, ScaffoldRules | null>();

/**
 * The pass 2 rules of study language `lang`, or null when it has no pack or its pack no `summary`
 * or `headings`: D6's cleaned length (and what depends on it) is then not computed.
 */
export function scaffoldRulesFor(
  lang: string,
  own: readonly LoadedPack[] = [],
): ScaffoldRules | null {
  const pack = packFor(lang, own)?.pack;
  if (!pack) return null;
  let r = scaffoldSeen.get(pack);
  if (r === undefined) {
    const en = packFor('en')!.pack;
    r = pack.summary && pack.headings ? scaffoldRules(pack === en ? [en] : [pack, en]) : null;
    scaffoldSeen.set(pack, r);
  }
  return r;
}

let bilingual: ScaffoldRules | undefined;
/** English and Simplified Chinese together: the cleaner for a text of no known language. */
function bilingualRules(): ScaffoldRules {
  bilingual ??= scaffoldRules([packFor('en')!.pack, packFor('zh-Hans')!.pack]);
  return bilingual;
}

/** Pass 2, rule 1: is this line (after pass 1) a bare section label? */
export function isLabelLine(line: string, rules: ScaffoldRules = bilingualRules()): boolean {
  const t = line.trim();
  if (t.length === 0 || charCount(t) > 30) return false;
  const end = rules.labelEnds.find((e) => t.endsWith(e));
  const bare = end ? t.slice(0, t.length - end.length) : t;
  if (bare.length === 0 || rules.sentenceEnd.test(bare)) return false;
  if (rules.maxInner !== null) {
    let n = 0;
    for (const c of bare) if (rules.inner.includes(c)) n++;
    if (n > rules.maxInner) return false;
  }
  return rules.label.test(bare);
}

/** Pass 2, rule 2: does this line open a summary block? */
export function isSummaryOpener(line: string, rules: ScaffoldRules = bilingualRules()): boolean {
  return rules.opener.test(line);
}

/** `/\s/` of one code unit (ASCII without the expression). */
export function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c > 0x7f && /\s/.test(String.fromCharCode(c)));
}

/**
 * The line of `text` from `a` to `b` is a summary opener (most lines are ruled out without the
 * expression: an ASCII first letter no opener starts with; under case folding `ſ` is an `s`, but
 * it is not ASCII).
 */
function opensSummaryAt(text: string, a: number, b: number, rules: ScaffoldRules): boolean {
  let i = a;
  while (i < b && isSpace(text.charCodeAt(i))) i++;
  const c = text.charCodeAt(i);
  if (i === b || (c < 0x80 && !rules.openerStarts.has(c))) return false;
  return isSummaryOpener(text.slice(a, b), rules);
}

/**
 * Pass 2: label lines and the trailing summary removed, blank lines collapsed, trailing spaces
 * stripped. What `lines.map((l) => l.trimEnd()).join('\n')` with `/\n{2,}/g` made one line feed
 * and line feeds at both ends removed gives: the lines not blank after `trimEnd`, joined.
 */
const scaffold = rememberLast<ScaffoldRules>((text, rules) => {
  // Line starts (a line is what `split('\n')` gives).
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const end = (k: number) => (k + 1 < starts.length ? starts[k + 1]! - 1 : text.length);
  // The trailing block is found first: its opener ("Summary:") is itself label-shaped.
  let kept = starts.length;
  for (let k = starts.length - 1; k >= 0; k--) {
    if (!opensSummaryAt(text, starts[k]!, end(k), rules)) continue;
    if (k > 0 && /\S/.test(text.slice(0, starts[k]))) kept = k;
    break;
  }
  const parts: string[] = [];
  for (let k = 0; k < kept; k++) {
    const line = trimmedEnd(text, starts[k]!, end(k));
    if (line !== '' && !isLabelLine(line, rules)) parts.push(line);
  }
  return parts.join('\n');
});

/** Pass 2 with the rules of `rules` (by default English and Simplified Chinese together). */
export function stripScaffold(text: string, rules: ScaffoldRules = bilingualRules()): string {
  return scaffold(text, rules);
}

/** `text.slice(a, b).trimEnd()`, without copying a long run of trailing blanks first. */
function trimmedEnd(text: string, a: number, b: number): string {
  let e = b;
  while (e > a && isSpace(text.charCodeAt(e - 1))) e--;
  return text.slice(a, e);
}

/** Both passes: the deep-stripped text of Appendix O. */
export function cleanResponse(text: string, rules: ScaffoldRules = bilingualRules()): string {
  return stripScaffold(stripMarkdown(text), rules);
}

/** A high surrogate: only from the first one on can a pair of code units be one code point. */
const HIGH_SURROGATE = /[\ud800-\udbff]/;

/**
 * Characters as Unicode code points: what `Array.from(text).length` counts (a lone surrogate is
 * one), without building the array. The scan starts at the first high surrogate, found by the
 * expression (at once in a text of one-byte characters, which holds none).
 */
export function charCount(text: string): number {
  const high = HIGH_SURROGATE.exec(text);
  if (high === null) return text.length;
  let n = text.length;
  for (let i = high.index; i < text.length - 1; i++) {
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
  /** Null when the language has no pass 2 rules (no pack, or a pack without them). */
  clean: number | null;
}

/** D6 for one response under all three accountings. */
export function responseLengths(
  text: string,
  rules: ScaffoldRules | null = bilingualRules(),
): Lengths {
  const md = stripMarkdown(text);
  return {
    raw: charCount(text),
    markdown: charCount(md),
    clean: rules === null ? null : charCount(scaffold(md, rules)),
  };
}
