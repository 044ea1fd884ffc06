/**
 * The forced-choice parser as it was before its normalizing, label search and negation look-back
 * were made linear (frozen, for differential tests: test/score/parse-differential.test.ts). Its
 * negation look-back reads back to the clause's start for every label found.
 */
import { replaceThinkBlocks } from '../../src/core/think.js';
import { cuesFor, type CueSet } from '../../src/score/cues.js';

/** Why a response scores 0. `no_response`: the run recorded no response text (an error row). */
type ZeroReason = 'neutral' | 'refusal' | 'ambiguous' | 'unparseable' | 'no_response';

/** A response option of the trial's language: its label and its score before keying. */
interface Option {
  label: string;
  value: number;
}

/** What the parser found. */
interface ParseResult {
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
const WORD = /[\p{L}\p{N}]/u;
const SENTENCE_END = /[.!?](?=\s|$)|[。！？;；\n]/u;
const CLAUSE_END = /[,.;:!?，。；：！？\n()（）\-–—]/u;

/** Normalize a response (or a label) for matching. */
function normalizeText(text: string): string {
  return (
    replaceThinkBlocks(text, ' ')
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[’‘`´]/g, "'")
      .replace(/[*_#>~|"“”«»「」『』【】[\]]/g, ' ')
      // Runs of blanks become one space; a lone space is left as it is (the same text, without a
      // replacement per word of a long reply).
      .replace(/[ \t\f\v\u00a0\u3000]{2,}|[\t\f\v\u00a0\u3000]/g, ' ')
  );
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
  labels: readonly { norm: string; option: number }[],
  cues: CueSet,
): Hit[] {
  const hits: Hit[] = [];
  let i = 0;
  while (i < text.length) {
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
    hits.push({
      option: hit.option,
      start: i,
      end: i + hit.norm.length,
      negated: isNegated(text, i, cues),
    });
    i += hit.norm.length;
  }
  return hits;
}

/** True when a negation precedes position `at` in its clause: within 3 words, or 3 CJK characters. */
export function isNegated(text: string, at: number, cues: CueSet): boolean {
  let from = at;
  while (from > 0 && !CLAUSE_END.test(text[from - 1]!)) from--;
  const clause = text.slice(from, at);
  const words = clause.trim().split(/\s+/).filter(Boolean).slice(-8); // the clause's last eight words (cues.ts NEGATION_WORDS)
  for (const w of words) {
    for (const n of [...cues.negations, ...cues.affixes]) {
      if (NO_BOUNDARY.test(n[0]!)) continue;
      if (w === n || (n.startsWith("n'") && w.endsWith(n))) return true;
    }
  }
  const tail = clause.replace(/\s+/g, '').slice(-3);
  return [...cues.negations, ...cues.affixes].some(
    (n) => NO_BOUNDARY.test(n[0]!) && tail.includes(n),
  );
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Text up to the end of the sentence that starts at `from`. */
function sentenceFrom(text: string, from: number): string {
  const rest = text.slice(from);
  const m = SENTENCE_END.exec(rest);
  return m ? rest.slice(0, m.index) : rest;
}

/**
 * The regular expression of a language's answer markers (`answer:`, `答案:`, …). Built at run
 * time, so checked by hand: literal words then `\s*:\s*`, so every try stops within a marker
 * and the blanks after it.
 */
function markerRegExp(cues: CueSet): RegExp {
  const markers = [...cues.answerMarkers].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return new RegExp(`(?:^|[^\\p{L}\\p{N}])(?:${markers.join('|')})\\s*:\\s*`, 'gu');
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
): string[] {
  const segs: string[] = [];
  let end = -1;
  for (const m of text.matchAll(re)) {
    const from = m.index + m[0].length;
    if (suffixesAddNothing && from < end) continue;
    const seg = sentenceFrom(text, from);
    segs.push(seg);
    end = from + seg.length;
  }
  if (segs.some((s) => s.trim() !== '')) return segs;
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) return [];
  const head = text.slice(text.indexOf(lines[first]!)).replace(/^\s*(?:[-•]|\d+[.)])\s+/, '');
  return [sentenceFrom(head, 0), ...lines.slice(first + 1).filter(labelOnly)];
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
interface OptionParser {
  (response: string | null | undefined): ParseResult;
}

/**
 * Make a parser for one pool language.
 *
 * @example
 * const parse = optionParser([{label: '强烈同意', value: 2}, {label: '同意', value: 1}, {label: '不同意', value: -1}, {label: '强烈不同意', value: -2}], 'zh');
 * parse('答案：**不同意**。').value; // -1
 */
export function referenceOptionParser(options: readonly Option[], lang: string): OptionParser {
  const cues = cuesFor(lang);
  const markers = markerRegExp(cues);
  const labels = options
    .map((o, option) => ({ norm: normalizeText(o.label).trim(), option }))
    .filter((l) => l.norm.length > 0)
    .sort((a, b) => b.norm.length - a.norm.length);
  // A label or phrase found across the start of a marker's segment would have to hold the
  // marker's colon or begin with white space (one across a join, a line feed); without one, a
  // segment that is a suffix of the previous one finds nothing the previous did not.
  const crossesStart = (p: string): boolean => /[:\n]|^\s/u.test(p);
  const suffixesAddNothing =
    !labels.some((l) => crossesStart(l.norm)) &&
    ![...cues.neutral, ...cues.refusal].some(crossesStart);
  const labelOnly = (line: string): boolean => {
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
    const text = normalizeText(response);
    if (text.trim() === '') return zero('unparseable', 'empty response');
    const segments = answerSegments(text, markers, labelOnly, suffixesAddNothing).join('\n');
    const { text: seg, found: neutralInSeg } = blankOut(segments, cues.neutral);
    const hits = findLabels(seg, labels, cues);
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
