/**
 * The Appendix O cleaner's rules that a backtracking regular expression would run in quadratic
 * time on hostile text (a 4 MiB reply of spaces, `![`, or fence lines without a closer), written
 * as single forward scans. Each function gives exactly what its regular expression (quoted in its
 * comment, JavaScript semantics) gives with `String.prototype.replace`; test/audit/ checks them
 * against those expressions on random text.
 *
 * Line ends are JavaScript's (`\n`, `\r`, U+2028, U+2029): where `^`, `$` (multiline) and `.`
 * stop.
 */

/** A JavaScript line terminator: where `^`/`$` of a multiline expression and `.` stop. */
function isLineEnd(ch: string | undefined): boolean {
  return ch === '\n' || ch === '\r' || ch === '\u2028' || ch === '\u2029';
}

/** `[ \t]`. */
function isBlank(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t';
}

/** The first `stop` or `\n` at or after `from`, or -1. */
function stopOrFeed(text: string, from: number, stop: string): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === stop || c === '\n') return i;
  }
  return -1;
}

/**
 * Rules 1 and 2: `/!\[([^\]\n]*)\]\([^)\n]*\)/g` (open `![`) and `/\[([^\]\n]*)\]\([^)\n]*\)/g`
 * (open `[`), replaced by `$1`. A start that fails has scanned up to a `]` or `\n` (or a `)`
 * search up to a `\n`); every start inside that stretch reaches the same stop and fails the same
 * way, so the scan resumes there.
 */
export function replaceLinks(text: string, open: '![' | '['): string {
  let out = '';
  let from = 0;
  let at = text.indexOf(open);
  while (at >= 0) {
    const close = stopOrFeed(text, at + open.length, ']');
    if (close < 0) break;
    let next = close;
    if (text[close] === ']' && text[close + 1] === '(') {
      const end = stopOrFeed(text, close + 2, ')');
      if (end < 0) break;
      if (text[end] === ')') {
        out += text.slice(from, at) + text.slice(at + open.length, close);
        from = end + 1;
      }
      next = end;
    }
    at = text.indexOf(open, next);
  }
  return out + text.slice(from);
}

/**
 * `find(from)`: the first position at or after `from` with a property that does not depend on
 * `from`, remembered: asked again for a later `from` up to that position, the answer is the same.
 */
function remembered(find: (from: number) => number): (from: number) => number {
  let lo = -1;
  let hit = -1;
  return (from) => {
    if (lo < 0 || from < lo || (hit >= 0 && from > hit)) {
      lo = from;
      hit = find(from);
    }
    return hit;
  };
}

/** The start of the line after the one holding `from` (past the text's end when none). */
function nextLineStart(text: string, from: number): number {
  let i = from;
  while (i < text.length && !isLineEnd(text[i])) i++;
  return i + 1;
}

/** The end of the `[ \t]*` run starting at `from`. */
function skipBlanks(text: string, from: number): number {
  let i = from;
  while (isBlank(text[i])) i++;
  return i;
}

/** A closing fence at `y`: `fence[ \t]*` then a line end or the text's end. */
function closesAt(text: string, y: number, fence: string): boolean {
  const z = skipBlanks(text, y + fence.length);
  return z === text.length || isLineEnd(text[z]);
}

/** Where the body ends and the match ends, for the first closing fence at or after `b`. */
function closing(text: string, b: number, y: number): { e: number; z: number } {
  let w = y;
  while (w > b && isBlank(text[w - 1])) w--;
  // `\n?[ \t]*` before the fence: the body may stop at the line feed before the blanks.
  const lo = w > b && text[w - 1] === '\n' ? w - 1 : w;
  return { e: lo, z: skipBlanks(text, y + 3) };
}

/**
 * Rule 3: `/^[ \t]*(```|~~~)[^\n]*\n([\s\S]*?)\n?[ \t]*\1[ \t]*$/gm` replaced by `$2`. The body
 * ends at the first closing fence (the fence, blanks, a line end) at or after its start, less the
 * blanks and one line feed before it; the first such fence is looked up once per position, not
 * once per opening line.
 */
export function replaceFences(text: string): string {
  const find = (fence: string) =>
    remembered((from) => {
      let y = text.indexOf(fence, from);
      while (y >= 0 && !closesAt(text, y, fence)) y = text.indexOf(fence, y + 1);
      return y;
    });
  const closer = { '```': find('```'), '~~~': find('~~~') };
  const feed = remembered((from) => text.indexOf('\n', from));
  let out = '';
  let from = 0;
  for (let s = 0; s <= text.length;) {
    const j = skipBlanks(text, s);
    const fence = text.startsWith('```', j) ? '```' : text.startsWith('~~~', j) ? '~~~' : null;
    const nl = fence ? feed(j + 3) : -1;
    const y = fence && nl >= 0 ? closer[fence](nl + 1) : -1;
    if (y < 0) {
      s = nextLineStart(text, s);
      continue;
    }
    const { e, z } = closing(text, nl + 1, y);
    out += text.slice(from, s) + text.slice(nl + 1, e);
    from = z;
    s = nextLineStart(text, z);
  }
  return out + text.slice(from);
}

/** The heading text of `rest` (after `#… `): less a closing `[ \t]+#+` and trailing blanks. */
function headingText(rest: string): string {
  let a = rest.length;
  while (a > 0 && isBlank(rest[a - 1])) a--;
  let h = a;
  while (h > 0 && rest[h - 1] === '#') h--;
  let w = h;
  while (w > 0 && isBlank(rest[w - 1])) w--;
  return rest.slice(0, h < a && w < h ? w : a);
}

/** Rule 7 on one line: `/^[ \t]{0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/` replaced by `$1`. */
function headingLine(line: string): string {
  const i = skipBlanks(line, 0);
  if (i > 3 || line[i] !== '#') return line;
  let j = i;
  while (line[j] === '#') j++;
  if (j - i > 6 || !isBlank(line[j])) return line;
  return headingText(line.slice(skipBlanks(line, j)));
}

/**
 * Rule 7: `/^[ \t]{0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm` replaced by `$1`. Only a line
 * with `#` after at most three blanks is cut out and read; the rest are copied as they are.
 */
export function replaceHeadings(text: string): string {
  let out = '';
  let from = 0;
  for (let s = 0; s <= text.length;) {
    const e = nextLineStart(text, s) - 1;
    const i = skipBlanks(text, s);
    if (i - s <= 3 && text[i] === '#') {
      const line = text.slice(s, e);
      const heading = headingLine(line);
      if (heading !== line) {
        out += text.slice(from, s) + heading;
        from = e;
      }
    }
    s = e + 1;
  }
  return out + text.slice(from);
}

/**
 * `text` with each code unit mapped by `map`, and every run of mapped code units that `blank`
 * holds made one space: what a chain of one-character replacements and
 * `/[blanks]{2,}|[blanks other than the space]/g` → `' '` gives, in one pass over the code units
 * rather than a replacement per match (a reply of a million line feeds).
 */
export function mapAndCollapse(
  text: string,
  map: (c: number) => number,
  blank: (c: number) => boolean,
): string {
  const out = new Uint16Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = map(text.charCodeAt(i));
    if (!blank(c)) out[n++] = c;
    else if (n === 0 || !blank(out[n - 1]!)) out[n++] = 0x20;
  }
  let s = '';
  // Code units as they are (a lone surrogate stays one), in pieces that fit an argument list.
  for (let i = 0; i < n; i += 8192)
    s += String.fromCharCode.apply(
      null,
      out.subarray(i, Math.min(n, i + 8192)) as unknown as number[],
    );
  return s;
}
