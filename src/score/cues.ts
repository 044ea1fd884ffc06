/**
 * Words the forced-choice parser needs besides the option labels (which come from the bundle's
 * `wrappers.json`): answer markers ("Answer:", "答案：", "Ответ:"), explicit neutral answers,
 * refusals, and negations that turn a label inside a sentence into an unclear answer. They come
 * from the trial language's pack (`stimkit:languages/<tag>.yaml`, src/languages/) and always the
 * English pack as well, since models often answer in English whatever the prompt language; all
 * matched on the text normalized as the trial language's pack says (NFKC or NFC, lower case,
 * joiners dropped when it ignores them).
 *
 * These lists decide only which *zero* reason a response gets, or that a label is negated; they
 * never produce a non-zero score on their own. A language without a pack, or whose pack has no
 * instrument rules, has no cue set: its rows are not scored (`no_rules_for_language`).
 */
import { StimkitError } from '../core/errors.js';
import { matchForm, packFor, shippedTags, type LoadedPack } from '../languages/load.js';
import type { LanguagePack } from '../languages/schema.js';

/** The cue lists of one language (its pack's and English's, merged). */
export interface CueSet {
  /** Phrases that introduce the answer, without the colon (the parser adds `:`/`：`). */
  answerMarkers: string[];
  /** What may follow a marker besides `:` (`།`). */
  markerEnds: string[];
  /** An explicit neutral answer. */
  neutral: string[];
  /** A refusal to take a side, or to answer at all. */
  refusal: string[];
  /** Whole words that negate a label that follows within the same clause. */
  negations: string[];
  /** Strings that negate a label when they occur among the clause's last letters (不, མི་). */
  affixes: string[];
  /** Whole words that negate a label when one of the next two words of its clause. */
  negationsAfter: string[];
  /** The pack's labels with their forms negated inside the word (as written: the parser normalizes). */
  negatedLabels: Array<{ label: string; forms: string[] }>;
  /** Sentence ends: only before white space (`.`), and anywhere (`。`, `؟`, `།`). */
  endsBeforeSpace: string[];
  endsAnywhere: string[];
  /** Clause ends besides the sentence ends (`،`). */
  clauseEnds: string[];
  /** How text is normalized for matching. */
  normalization: 'NFC' | 'NFKC';
  ignoreJoiners: boolean;
}

/** The cue lists for a language that has them (`instrumentCues`, else an error). */
export function cuesFor(lang: string, own: readonly LoadedPack[] = []): CueSet {
  const cues = instrumentCues(lang, own);
  if (!cues)
    throw StimkitError.fromProblem({
      code: 'E_NO_RULES_FOR_LANGUAGE',
      field: 'lang',
      message: `no instrument rules for language ${lang}`,
      expected: `a language pack with an instrument section (${shippedTags()})`,
      got: lang,
      fix: 'write a language pack with instrument rules for it (docs/formats/languages.md), or use a language stimkit ships a pack for',
    });
  return cues;
}

/**
 * The cue lists for a language: its pack's then English's, merged; null when the language has no
 * pack or its pack no instrument rules.
 */
export function instrumentCues(lang: string, own: readonly LoadedPack[] = []): CueSet | null {
  const pack = packFor(lang, own)?.pack;
  if (!pack?.instrument) return null;
  const en = packFor('en')!.pack;
  const sets = [pack, en].filter((p, i, all) => all.indexOf(p) === i);
  const form = {
    normalization: pack.matching.normalization,
    ignoreJoiners: pack.matching.ignore_joiners,
  };
  const merge = (k: keyof NonNullable<typeof pack.instrument>) => [
    ...new Set(
      sets.flatMap((p) =>
        ((p.instrument?.[k] as string[] | undefined) ?? []).map((w) =>
          matchForm(w, form).toLowerCase(),
        ),
      ),
    ),
  ];
  const ends = (k: 'before_space' | 'anywhere') => [
    ...new Set(sets.flatMap((p) => p.sentence_ends[k])),
  ];
  return {
    answerMarkers: merge('answer_markers'),
    markerEnds: merge('marker_ends'),
    neutral: merge('neutral'),
    refusal: merge('refusal'),
    negations: merge('negations'),
    affixes: merge('negation_affixes'),
    negationsAfter: merge('negations_after'),
    negatedLabels: negatedLabels(pack),
    endsBeforeSpace: ends('before_space'),
    endsAnywhere: ends('anywhere'),
    clauseEnds: [...new Set(sets.flatMap((p) => p.clause_ends))],
    ...form,
  };
}

/** The pack's labels that have negated forms, each with them. */
function negatedLabels(pack: LanguagePack): CueSet['negatedLabels'] {
  const ins = pack.instrument!;
  return Object.entries(ins.negated_labels ?? {}).flatMap(([key, forms]) => {
    const label = ins.labels?.[key as keyof NonNullable<typeof ins.labels>];
    return label && forms ? [{ label, forms }] : [];
  });
}

/** Where a clause ends: what the parser's negation look-back stops at. */
const CLAUSE_END = /[,.;:!?，。；：！？\n()（）\-–—]/u;

/** `test` of one code unit, remembered per code unit (ASCII in a table). */
function charClass(re: RegExp): (c: number) => boolean {
  const ascii = Array.from({ length: 128 }, (_, c) => re.test(String.fromCharCode(c)));
  const seen = new Map<number, boolean>();
  return (c) => {
    if (c < 128) return ascii[c]!;
    let v = seen.get(c);
    if (v === undefined) seen.set(c, (v = re.test(String.fromCharCode(c))));
    return v;
  };
}
const isClauseEnd = charClass(CLAUSE_END);
const isSpace = charClass(/\s/);

/** How many of a clause's last words are read for a negation before a label. */
const NEGATION_WORDS = 8;

/**
 * Whether a negation precedes position `at` in its clause (the text back to the last `CLAUSE_END`
 * character, or the pack's sentence and clause ends): one of its last NEGATION_WORDS words is a
 * negation word (`not`, `не`; `n't` ends one: "I do not think that I would agree"), or its last
 * few characters other than white space (three, or one more than the longest affix) hold a
 * negation affix (`不`, `并非`, `མི་`). A negation further back reads the label as negated too
 * rarely to matter; one within the window that does not negate it ("I can't deny that I agree")
 * makes the answer unclear (0, routed to a judge when there is one), never its opposite.
 *
 * Asked for positions in increasing order, as labels are found: the text is read once for all of
 * them, keeping only the clause's last NEGATION_WORDS words and characters, so a long clause of
 * labels ("agree agree …", 同意同意…) is not read again for each.
 */
export function negationReader(text: string, cues: CueSet): (at: number) => boolean {
  const words = cues.negations;
  const cjk = cues.affixes;
  const window = Math.max(3, ...cjk.map((n) => n.length + 1));
  const extra = new Set(
    [...cues.endsAnywhere, ...cues.endsBeforeSpace, ...cues.clauseEnds].map((e) => e.charCodeAt(0)),
  );
  // The clause's last NEGATION_WORDS words (start, end; the last one's end is -1 while open) and
  // the positions of its last three characters other than white space.
  const ws: number[] = [];
  const we: number[] = [];
  const tail: number[] = [];
  let k = 0;
  const read = (to: number): void => {
    for (; k < to; k++) {
      const c = text.charCodeAt(k);
      if (isClauseEnd(c) || extra.has(c)) {
        ws.length = we.length = tail.length = 0;
        continue;
      }
      const open = we.length > 0 && we[we.length - 1] === -1;
      if (isSpace(c)) {
        if (open) we[we.length - 1] = k;
        continue;
      }
      if (tail.push(k) > window) tail.shift();
      if (!open && ws.push(k) + we.push(-1) > 2 * NEGATION_WORDS) {
        ws.shift();
        we.shift();
      }
    }
  };
  const negates = (start: number, end: number): boolean =>
    words.some(
      (n) =>
        (end - start === n.length && text.startsWith(n, start)) ||
        (n.startsWith("n'") && end - start >= n.length && text.startsWith(n, end - n.length)),
    );
  return (at) => {
    read(at);
    if (ws.some((s, i) => negates(s, we[i] === -1 ? at : we[i]!))) return true;
    const chars = tail.map((p) => text[p]).join('');
    return cjk.some((n) => chars.includes(n));
  };
}

/**
 * Whether a negation after the label (`negations_after`: Uyghur ئەمەس "is not") is one of the next
 * two words after `from` (a label's end) in its clause, read no further than `to` (the next
 * label's start): each character is read for one label at most, the text once in all.
 */
export function negatedAfter(text: string, from: number, to: number, cues: CueSet): boolean {
  const words = cues.negationsAfter;
  if (words.length === 0) return false;
  const ends = new Set([...cues.endsAnywhere, ...cues.endsBeforeSpace, ...cues.clauseEnds]);
  const stop = (k: number) => isClauseEnd(text.charCodeAt(k)) || ends.has(text[k]!);
  let k = from;
  for (let n = 0; n < 2; n++) {
    while (k < to && isSpace(text.charCodeAt(k))) k++;
    if (k >= to || stop(k)) return false;
    const start = k;
    while (k < to && !isSpace(text.charCodeAt(k)) && !stop(k)) k++;
    if (words.some((w) => k - start === w.length && text.startsWith(w, start))) return true;
  }
  return false;
}
