/**
 * The units of D5 (language.ts), read in one forward scan of a response: one Han, kana or Hangul
 * character; a Latin word, inner apostrophes and hyphens included; a Cyrillic word. What
 * `/(\p{Script=Han})|([\p{Script=Hiragana}\p{Script=Katakana}ー])|(\p{Script=Hangul})|
 * (\p{Script=Latin}+(?:['’-]\p{Script=Latin}+)*)|(\p{Script=Cyrillic}+)/gu` matches.
 *
 * Sentences end after `.!?。！？;；` and at line feeds. No unit holds one of those, so the units
 * of the whole response, cut at them, are the units of its sentences; one sentence's units are
 * kept in buffers reused from sentence to sentence (a 4 MiB reply can hold two million
 * sentences, and an object per sentence or per unit is what made it slow).
 */

export type Script = 'Han' | 'Kana' | 'Hangul' | 'Latin' | 'Cyrillic';

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

/** The script of a code point among SCRIPT_TESTS, or null (ASCII letters are Latin). */
function scriptOf(cp: number): Script | null {
  if (cp < 0x80) return (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) ? 'Latin' : null;
  let s = scriptSeen.get(cp);
  if (s === undefined) {
    const ch = String.fromCodePoint(cp);
    s = SCRIPT_TESTS.find(([, re]) => re.test(ch))?.[0] ?? null;
    scriptSeen.set(cp, s);
  }
  return s;
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
export class SentenceUnits {
  /** How many units the sentence has. */
  n = 0;
  /** Each unit's script. */
  readonly script: Script[] = [];
  /** Whether each unit is a Latin or Cyrillic word starting with a capital. */
  readonly proper: boolean[] = [];
  /** Whether a kana unit is among them. */
  kana = false;
  /** The sentence's Latin words (the first `words` entries) and their letters. */
  readonly latin: string[] = [];
  words = 0;
  letters = 0;

  /** The sentence's Latin words joined by a space. */
  latinText(): string {
    let s = this.latin[0] ?? '';
    for (let i = 1; i < this.words; i++) s += ` ${this.latin[i]}`;
    return s;
  }

  clear(): void {
    this.n = this.words = this.letters = 0;
    this.kana = false;
  }

  push(script: Script, proper: boolean): void {
    this.script[this.n] = script;
    this.proper[this.n++] = proper;
    if (script === 'Kana') this.kana = true;
  }

  pushLatin(word: string): void {
    this.latin[this.words++] = word;
    this.letters += word.length;
  }
}

/** What a scan reports: each sentence with units (its buffers valid only during the call), each Han code point. */
interface ScanSink {
  sentence(units: SentenceUnits): void;
  han(cp: number): void;
}

/** Reads `text` once, reporting its sentences' units and its Han code points to `sink`. */
export function scanUnits(text: string, sink: ScanSink): void {
  const s = new SentenceUnits();
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
    if (script === 'Latin') {
      end = latinWordEnd(text, runEnd(text, end, script));
      s.pushLatin(text.slice(i, end));
    }
    if (script !== null)
      s.push(script, (script === 'Latin' || script === 'Cyrillic') && isUpper(cp));
    i = end;
  }
  flush();
}
