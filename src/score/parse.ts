/**
 * Forced-choice parsing: which of a pool's option labels a response chose (instrument paper,
 * Methods 4.4: four labelled options, no midpoint; neutral text, refusals and unparseable labels
 * score 0 with the reason kept).
 *
 * The rule, in order:
 * 1. Normalize: drop `<think>…</think>` blocks, NFKC (full-width `：` becomes `:`), lower case,
 *    markdown emphasis, headings and quotes removed, curly apostrophes made straight.
 * 2. Find the *answer segments*: the text after each answer marker (`Answer:`, `答案：`,
 *    `Resposta:` …) up to the end of its sentence; without a marker, the first sentence (or line)
 *    plus every line that is only a label (`**Agree**` after some reasoning).
 * 3. In those segments, blank out explicit neutral phrases (`neither agree nor disagree`), then
 *    match labels longest first at each position (不同意 is not 同意, `strongly disagree` is not
 *    `disagree`), whole words in scripts that separate words (`disagreeing` holds no label).
 *    A label preceded in its clause by a negation (`don't agree`, `不太同意`, `não concordo`), or
 *    followed within two words by one the pack puts after the verb (Uyghur ئەمەس), is *negated*.
 * 4. One distinct, un-negated label → that option. Two different labels → `ambiguous`. Only
 *    negated labels → `ambiguous`. No label → `refusal` or `neutral` when the segments (else the
 *    whole text) hold such a cue, otherwise `unparseable` (free text: a judge may score it).
 *
 * A label mentioned only inside free-running prose is not taken as the answer: that is what the
 * paper routes to a judge, and without one it scores 0.
 */
import { replaceThinkBlocks } from '../core/think.js';
import { mapAndCollapse } from '../audit/clean-scan.js';
import { cuesFor, instrumentCues, negatedAfter, negationReader, type CueSet } from './cues.js';
import { classChars, matchForm, type LoadedPack } from '../languages/load.js';

/** Why a response scores 0. `no_response`: the run recorded no response text (an error row). */
export const ZERO_REASONS = [
  'neutral',
  'refusal',
  'ambiguous',
  'unparseable',
  'no_response',
] as const;
type ZeroReason = (typeof ZERO_REASONS)[number];

/** A response option of the trial's language: its label and its score before keying. */
export interface Option {
  label: string;
  value: number;
}

/** What the parser found. */
export interface ParseResult {
  /** The chosen option's label as the pool spells it, or null. */
  label: string | null;
  /** Index of the chosen option in the pool's `options`, or null. */
  option: number | null;
  /** The chosen option's score before keying (−2..+2, no 0), or null. */
  value: number | null;
  /** Why nothing was chosen; null when an option was. */
  reason: ZeroReason | null;
  /** A short human explanation of the reason (which labels clashed, which cue fired). */
  detail: string | null;
}

const NO_BOUNDARY = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
const WORD = /[\p{L}\p{M}\p{N}]/u;
/** What a line that is only a label may hold besides the label. */
const LABEL_SEPARATOR = /[\s.,;:!?。，；：！？'()（）-]/u;

/**
 * Where a sentence ends: `[.!?](?=\s|$)|[。！？;；\n]` and the pack's own ends. Built at run
 * time, checked by hand: two character classes, the first with a one-character look-ahead.
 */
function sentenceEnd(cues: CueSet): RegExp {
  return new RegExp(
    `[.!?${classChars(cues.endsBeforeSpace)}](?=\\s|$)|[。！？;；\\n${classChars(cues.endsAnywhere)}]`,
    'u',
  );
}

/**
 * What normalizing maps a code unit to after NFKC and lower case: `’‘\`´` to `'`, markdown
 * emphasis, heading, quote and bracket characters to a space; every other to itself.
 */
const MAP = Uint16Array.from({ length: 0x10000 }, (_, c) => c);
for (const c of '’‘`´') MAP[c.charCodeAt(0)] = 0x27;
for (const c of '*_#>~|"“”«»「」『』【】[]') MAP[c.charCodeAt(0)] = 0x20;
/** Blanks: `[ \t\f\v\u00a0\u3000]`. */
const isBlank = (c: number): boolean =>
  c === 0x20 || c === 0x09 || c === 0x0c || c === 0x0b || c === 0xa0 || c === 0x3000;

/**
 * Normalize a response (or a label) for matching. After the pack's normalization (NFKC or NFC,
 * joiners dropped when it ignores them) and lower case, what
 * `.replace(/[’‘\`´]/g, "'").replace(/[*_#>~|"“”«»「」『』【】[\]]/g, ' ')
 * .replace(/[ \t\f\v\u00a0\u3000]{2,}|[\t\f\v\u00a0\u3000]/g, ' ')` gives (every run of blanks
 * becomes one space), in one pass over the code units rather than a replacement per match.
 */
function normalizeText(text: string, cues: CueSet): string {
  const t = matchForm(replaceThinkBlocks(text, ' '), cues).toLowerCase();
  return mapAndCollapse(t, (c) => MAP[c]!, isBlank);
}

/** A label occurrence in normalized text. */
interface Hit {
  option: number;
  start: number;
  end: number;
  negated: boolean;
}

function needsBoundary(ch: string | undefined): boolean {
  return ch !== undefined && !NO_BOUNDARY.test(ch);
}

/** Labels in `text` (normalized), longest first at each position, whole words where words exist. */
function findLabels(
  text: string,
  labels: readonly { norm: string; option: number; negates?: boolean }[],
  cues: CueSet,
): Hit[] {
  const hits: Hit[] = [];
  const negated = negationReader(text, cues);
  // Only where a label's first code unit is can a label start.
  const first = new Set(labels.map((l) => l.norm.charCodeAt(0)));
  let i = 0;
  while (i < text.length) {
    if (!first.has(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const hit = labels.find((l) => {
      if (!text.startsWith(l.norm, i)) return false;
      const before = text[i - 1];
      const after = text[i + l.norm.length];
      if (needsBoundary(l.norm[0]) && before !== undefined && WORD.test(before)) return false;
      if (needsBoundary(l.norm[l.norm.length - 1]) && after !== undefined && WORD.test(after))
        return false;
      return true;
    });
    if (!hit) {
      i++;
      continue;
    }
    const no = hit.negates === true || negated(i);
    hits.push({ option: hit.option, start: i, end: i + hit.norm.length, negated: no });
    i += hit.norm.length;
  }
  hits.forEach((h, n) => {
    h.negated ||= negatedAfter(text, h.end, hits[n + 1]?.start ?? text.length, cues);
  });
  return hits;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Text up to the end of the sentence that starts at `from`. */
function sentenceFrom(text: string, from: number, end: RegExp): string {
  const rest = text.slice(from);
  const m = end.exec(rest);
  return m ? rest.slice(0, m.index) : rest;
}

/**
 * The regular expression of a language's answer markers (`answer:`, `答案:`, …). Built at run
 * time, so checked by hand: literal words then `\s*[:…]\s*`, so every try stops within a
 * marker and the blanks after it.
 */
function markerRegExp(cues: CueSet): RegExp {
  const markers = [...cues.answerMarkers].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const ends = classChars(cues.markerEnds);
  const colon = ends === '' ? ':' : `[:${ends}]`;
  return new RegExp(`(?:^|[^\\p{L}\\p{N}])(?:${markers.join('|')})\\s*${colon}\\s*`, 'gu');
}

/**
 * The answer segments. A marker inside the previous segment (`answer: my answer: agree`) starts
 * a suffix of it, in which nothing new can be found when `suffixesAddNothing` (see
 * `optionParser`): it is left out, so a reply of many markers in one sentence stays linear.
 */
function answerSegments(
  text: string,
  re: RegExp,
  labelOnly: (line: string) => boolean,
  suffixesAddNothing: boolean,
  sentenceEnd: RegExp,
): string[] {
  const segs: string[] = [];
  let end = -1;
  for (const m of text.matchAll(re)) {
    const from = m.index + m[0].length;
    if (suffixesAddNothing && from < end) continue;
    const seg = sentenceFrom(text, from, sentenceEnd);
    segs.push(seg);
    end = from + seg.length;
  }
  if (segs.some((s) => s.trim() !== '')) return segs;
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) return [];
  const head = text.slice(text.indexOf(lines[first]!)).replace(/^\s*(?:[-•]|\d+[.)])\s+/, '');
  return [sentenceFrom(head, 0, sentenceEnd), ...lines.slice(first + 1).filter(labelOnly)];
}

function blankOut(text: string, phrases: readonly string[]): { text: string; found: string[] } {
  const found: string[] = [];
  let out = text;
  for (const p of [...phrases].sort((a, b) => b.length - a.length)) {
    if (out.includes(p)) {
      found.push(p);
      out = out.split(p).join(' '.repeat(p.length));
    }
  }
  return { text: out, found };
}

/** A parser bound to one language's options: build once per language, call per response. */
export interface OptionParser {
  (response: string | null | undefined): ParseResult;
}

/**
 * Make a parser for one pool language, with the rules of its pack (`own`: the study's packs by
 * path, before the shipped ones); an error when the language has no instrument rules
 * (`optionParserOrNull` gives null instead).
 *
 * @example
 * const parse = optionParser([{label: '强烈同意', value: 2}, {label: '同意', value: 1}, {label: '不同意', value: -1}, {label: '强烈不同意', value: -2}], 'zh');
 * parse('答案：**不同意**。').value; // -1
 */
export function optionParser(
  options: readonly Option[],
  lang: string,
  own: readonly LoadedPack[] = [],
): OptionParser {
  return parserWith(options, cuesFor(lang, own));
}

/** `optionParser`, or null when the language has no instrument rules. */
export function optionParserOrNull(
  options: readonly Option[],
  lang: string,
  own: readonly LoadedPack[] = [],
): OptionParser | null {
  return instrumentCues(lang, own) ? optionParser(options, lang, own) : null;
}

/**
 * A normalized label without white space and sentence ends at its end (`མོས།` is `མོས`, `Agree.`
 * is `agree`): the parser's segments stop before a sentence end, so a label holding one would
 * never be found.
 */
function labelCore(norm: string, cues: CueSet): string {
  const ends = new Set([...'.!?。！？', ...cues.endsBeforeSpace, ...cues.endsAnywhere]);
  const t = norm.trim();
  let n = t.length;
  while (n > 0 && (ends.has(t[n - 1]!) || /\s/u.test(t[n - 1]!))) n--;
  return t.slice(0, n);
}

/**
 * The pack's forms of a pool label negated inside the word (Uyghur قوشۇلمايمەن of قوشۇلىمەن), as
 * labels that negate their option; a form that is itself a pool label stays that label.
 */
function negatedForms(
  labels: ReadonlyArray<{ norm: string; option: number }>,
  cues: CueSet,
): Array<{ norm: string; option: number; negates: true }> {
  const norms = new Set(labels.map((l) => l.norm));
  return cues.negatedLabels.flatMap(({ label, forms }) => {
    const own = labels.find((l) => l.norm === labelCore(normalizeText(label, cues), cues));
    if (!own) return [];
    return forms
      .map((f) => labelCore(normalizeText(f, cues), cues))
      .filter((f) => f !== '' && !norms.has(f))
      .map((norm) => ({ norm, option: own.option, negates: true as const }));
  });
}

function parserWith(options: readonly Option[], cues: CueSet): OptionParser {
  const markers = markerRegExp(cues);
  const end = sentenceEnd(cues);
  const labels = options
    .map((o, option) => ({ norm: labelCore(normalizeText(o.label, cues), cues), option }))
    .filter((l) => l.norm.length > 0)
    .sort((a, b) => b.norm.length - a.norm.length);
  const found = [...labels, ...negatedForms(labels, cues)].sort(
    (a, b) => b.norm.length - a.norm.length,
  );
  // A label or phrase found across the start of a marker's segment would have to hold the
  // marker's colon or begin with white space (one across a join, a line feed); without one, a
  // segment that is a suffix of the previous one finds nothing the previous did not.
  const crossesStart = (p: string): boolean =>
    /[:\n]|^\s/u.test(p) || cues.markerEnds.some((e) => p.includes(e));
  const suffixesAddNothing =
    !labels.some((l) => crossesStart(l.norm)) &&
    ![...cues.neutral, ...cues.refusal].some(crossesStart);
  // A bare line starts at its first character that is not a separator: unless a label starts
  // with that character, no label is the line (checked without building the bare line).
  const firsts = new Set(labels.map((l) => l.norm.charCodeAt(0)));
  const labelOnly = (line: string): boolean => {
    let i = 0;
    while (i < line.length && LABEL_SEPARATOR.test(line[i]!)) i++;
    if (!firsts.has(line.charCodeAt(i))) return false;
    const bare = line.replace(/[\s.,;:!?。，；：！？'()（）-]+/gu, ' ').trim();
    return labels.some((l) => l.norm === bare);
  };
  const zero = (reason: ZeroReason, detail: string): ParseResult => ({
    label: null,
    option: null,
    value: null,
    reason,
    detail,
  });

  return (response) => {
    if (response === null || response === undefined)
      return zero('no_response', 'no response was recorded for this trial');
    const text = normalizeText(response, cues);
    if (text.trim() === '') return zero('unparseable', 'empty response');
    const segments = answerSegments(text, markers, labelOnly, suffixesAddNothing, end).join('\n');
    const { text: seg, found: neutralInSeg } = blankOut(segments, cues.neutral);
    const hits = findLabels(seg, found, cues);
    const chosen = [...new Set(hits.filter((h) => !h.negated).map((h) => h.option))];
    const negated = [...new Set(hits.filter((h) => h.negated).map((h) => h.option))];
    const names = (ids: number[]) => ids.map((i) => JSON.stringify(options[i]!.label)).join(', ');
    if (chosen.length === 1 && negated.length === 0) {
      const o = options[chosen[0]!]!;
      return { label: o.label, option: chosen[0]!, value: o.value, reason: null, detail: null };
    }
    if (chosen.length + negated.length > 0) {
      const all = [...new Set([...chosen, ...negated])];
      if (all.length > 1)
        return zero('ambiguous', `more than one option in the answer: ${names(all)}`);
      return zero('ambiguous', `the answer negates ${names(all)}`);
    }
    if (cues.refusal.some((r) => segments.includes(r)))
      return zero('refusal', 'declines to choose an option');
    if (neutralInSeg.length > 0)
      return zero('neutral', `neutral answer (${JSON.stringify(neutralInSeg[0])})`);
    if (cues.refusal.some((r) => text.includes(r)))
      return zero('refusal', 'declines to choose an option');
    const neutral = cues.neutral.find((n) => text.includes(n));
    if (neutral) return zero('neutral', `neutral answer (${JSON.stringify(neutral)})`);
    const elsewhere = findLabels(text, labels, cues);
    return zero(
      'unparseable',
      elsewhere.length > 0
        ? 'free text: options are mentioned only inside the prose (a judge can score it)'
        : 'no option label found',
    );
  };
}
