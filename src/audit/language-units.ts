/**
 * The units of D5 (language.ts), read in one forward scan of a response: one Han, kana or Hangul
 * character; a Latin word, inner apostrophes and hyphens included; a Cyrillic word; and in every
 * other script (by the Unicode Script property, ISO 15924 codes: `Arab`, `Tibt`, `Deva` …) a run
 * of its letters with the combining marks and joiners (ZWNJ, ZWJ) inside it: an Arabic-script
 * word, a Tibetan syllable (the tsheg `་` ends it). For the first five, what
 * `/(\p{Script=Han})|([\p{Script=Hiragana}\p{Script=Katakana}ー])|(\p{Script=Hangul})|
 * (\p{Script=Latin}+(?:['’-]\p{Script=Latin}+)*)|(\p{Script=Cyrillic}+)/gu` matches.
 *
 * Sentences end after `.!?。！？;；` and at line feeds. No unit holds one of those, so the units
 * of the whole response, cut at them, are the units of its sentences; one sentence's units are
 * kept in buffers reused from sentence to sentence (a 4 MiB reply can hold two million
 * sentences, and an object per sentence or per unit is what made it slow).
 */
import { OTHER_SCRIPTS } from '../languages/scripts.js';

/** A unit's script: one of the five named, or the ISO 15924 code of another (`Arab`, `Tibt`). */
export type Script = string;

/** A letter or combining mark: what a unit in another script is made of. */
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
const MARK = /\p{M}/u;

/** The scripts a unit can be in, tried in this order (ー, Common, counts as kana). */
const SCRIPT_TESTS: ReadonlyArray<[Script, RegExp]> = [
  ['Han', /\p{Script=Han}/u],
  ['Kana', /[\p{Script=Hiragana}\p{Script=Katakana}ー]/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
];
const scriptSeen = new Map<number, Script | null>();
const upperSeen = new Map<number, boolean>();

/**
 * The script of a code point among SCRIPT_TESTS, else of a letter or mark among OTHER_SCRIPTS,
 * or null (ASCII letters are Latin).
 */
function scriptOf(cp: number): Script | null {
  if (cp < 0x80) return (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) ? 'Latin' : null;
  let s = scriptSeen.get(cp);
  if (s === undefined) {
    const ch = String.fromCodePoint(cp);
    s = SCRIPT_TESTS.find(([, re]) => re.test(ch))?.[0] ?? null;
    if (s === null && LETTER_OR_MARK.test(ch))
      s = OTHER_SCRIPTS.find(([, re]) => re.test(ch))?.[0] ?? null;
    scriptSeen.set(cp, s);
  }
  return s;
}

const markSeen = new Map<number, boolean>();
/** A combining mark of any script (Arabic vowel signs are `Inherited`), ZWNJ or ZWJ. */
function continuesWord(cp: number): boolean {
  if (cp < 0x300) return false;
  if (cp === 0x200c || cp === 0x200d) return true;
  let m = markSeen.get(cp);
  if (m === undefined) markSeen.set(cp, (m = MARK.test(String.fromCodePoint(cp))));
  return m;
}

/** The end of the word in another script whose first code point ends at `from`. */
function otherWordEnd(s: string, from: number, script: Script): number {
  let i = from;
  while (i < s.length) {
    const cp = s.codePointAt(i)!;
    if (scriptOf(cp) !== script && !continuesWord(cp)) break;
    i += cp > 0xffff ? 2 : 1;
  }
  return i;
}

/** `\p{Lu}`: an upper-case letter. */
function isUpper(cp: number): boolean {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a;
  let u = upperSeen.get(cp);
  if (u === undefined) {
    u = /\p{Lu}/u.test(String.fromCodePoint(cp));
    upperSeen.set(cp, u);
  }
  return u;
}

/** The end of the run of `script` code points from `from`. */
function runEnd(s: string, from: number, script: Script): number {
  let i = from;
  while (i < s.length) {
    const cp = s.codePointAt(i)!;
    if (scriptOf(cp) !== script) break;
    i += cp > 0xffff ? 2 : 1;
  }
  return i;
}

/** The end of the Latin word whose first run of letters ends at `from` (`['’-]` then letters, repeated). */
function latinWordEnd(s: string, from: number): number {
  let end = from;
  for (let j; "'’-".includes(s[end] ?? 'x') && (j = runEnd(s, end + 1, 'Latin')) > end + 1;)
    end = j;
  return end;
}

/** `.!?。！？;；` or a line feed: where a sentence ends. */
function endsSentence(c: number): boolean {
  return (
    c === 0x2e ||
    c === 0x21 ||
    c === 0x3f ||
    c === 0x3b ||
    c === 0x0a ||
    c === 0x3002 ||
    c === 0xff01 ||
    c === 0xff1f ||
    c === 0xff1b
  );
}

/** One sentence's units, in buffers that the next sentence reuses (`n` of them are this one's). */
/** Whether `script` is a word script (Latin, Cyrillic, every other) rather than a CJK one. */
export function isWordScript(script: Script): boolean {
  return script !== 'Han' && script !== 'Kana' && script !== 'Hangul';
}

const SCRIPTS: readonly Script[] = [
  'Han',
  'Kana',
  'Hangul',
  'Latin',
  'Cyrillic',
  ...OTHER_SCRIPTS.map(([code]) => code),
];
const CODE = new Map(SCRIPTS.map((script, i) => [script, i]));

/** `a` copied into an array twice as long. */
function grown<T extends Uint8Array | Int32Array>(a: T): T {
  const b = new (a.constructor as new (n: number) => T)(a.length * 2);
  b.set(a);
  return b;
}

/**
 * One sentence's units, in buffers that the next sentence reuses (`n` of them are this one's),
 * and the Latin words of the response so far (where they are in the text).
 */
export class SentenceUnits {
  /** How many units the sentence has. */
  n = 0;
  private codes = new Uint8Array(1024);
  private capitals = new Uint8Array(1024);
  /** Whether a kana unit is among them. */
  kana = false;
  /** The Latin words read so far: the sentence's are those from `firstWord` on. */
  private from = new Int32Array(1024);
  private to = new Int32Array(1024);
  private words = 0;
  private firstWord = 0;
  /** The letters of the sentence's Latin words. */
  letters = 0;

  constructor(private readonly text: string) {}

  /** The script of unit `i`. */
  script(i: number): Script {
    return SCRIPTS[this.codes[i]!]!;
  }

  /** Whether unit `i` is a Latin or Cyrillic word starting with a capital. */
  proper(i: number): boolean {
    return this.capitals[i] === 1;
  }

  /**
   * The sentence's Latin words joined by a space, or a prefix of that of at least `max` code units
   * (a reader of only the first `max` sees the same).
   */
  latinText(max: number): string {
    return this.joined(this.firstWord, this.words, max);
  }

  /** All the Latin words read, joined by a space, or a prefix of at least `max` code units. */
  allLatinText(max: number): string {
    return this.joined(0, this.words, max);
  }

  /**
   * Words `a` to `b` joined by a space, stopping after the word that makes it `max` code units
   * long: a 4 MiB reply of words need not be copied whole when only its start is read.
   */
  private joined(a: number, b: number, max: number): string {
    const parts: string[] = [];
    let length = -1;
    for (let k = a; k < b && length < max; k++) {
      parts.push(this.text.slice(this.from[k], this.to[k]));
      length += 1 + this.to[k]! - this.from[k]!;
    }
    return parts.join(' ');
  }

  clear(): void {
    this.n = this.letters = 0;
    this.firstWord = this.words;
    this.kana = false;
  }

  push(script: Script, proper: boolean): void {
    if (this.n === this.codes.length) {
      this.codes = grown(this.codes);
      this.capitals = grown(this.capitals);
    }
    this.codes[this.n] = CODE.get(script)!;
    this.capitals[this.n++] = proper ? 1 : 0;
    if (script === 'Kana') this.kana = true;
  }

  pushLatin(from: number, to: number): void {
    if (this.words === this.from.length) {
      this.from = grown(this.from);
      this.to = grown(this.to);
    }
    this.from[this.words] = from;
    this.to[this.words++] = to;
    this.letters += to - from;
  }
}

/** What a scan reports: each sentence with units (its buffers valid only during the call), each Han code point. */
interface ScanSink {
  sentence(units: SentenceUnits): void;
  han(cp: number): void;
}

/**
 * Reads `text` once, reporting its sentences' units and its Han code points to `sink`; gives the
 * Latin words of the whole text joined by a space (or a prefix of that of at least `max` code
 * units).
 */
export function scanUnits(text: string, sink: ScanSink, max: number): string {
  const s = new SentenceUnits(text);
  const flush = (): void => {
    if (s.n > 0) sink.sentence(s);
    s.clear();
  };
  let i = 0;
  while (i < text.length) {
    const cp = text.codePointAt(i)!;
    if (endsSentence(cp)) {
      flush();
      i++;
      continue;
    }
    const script = scriptOf(cp);
    let end = i + (cp > 0xffff ? 2 : 1);
    if (script === 'Han') sink.han(cp);
    if (script === 'Cyrillic') end = runEnd(text, end, script);
    else if (script !== null && script !== 'Latin' && isWordScript(script))
      end = otherWordEnd(text, end, script);
    if (script === 'Latin') {
      end = latinWordEnd(text, runEnd(text, end, script));
      s.pushLatin(i, end);
    }
    if (script !== null) s.push(script, isWordScript(script) && isUpper(cp));
    i = end;
  }
  flush();
  return s.allLatinText(max);
}
