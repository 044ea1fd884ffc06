/**
 * The narrative-marker screen normalizes a reply in one pass over its code units and gives what
 * its replacements gave (a reply of a million line feeds was a million replacements).
 */
import { describe, expect, it } from 'vitest';
import { normalizeForMarkers } from '../../src/audit/lexical.js';
import { mulberry32 as random } from '../../src/study/synthetic.js';

/** The normalizing before: white-space runs, then curly quotes, by regular expressions. */
const before = (s: string): string =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s{2,}|(?! )\s/g, ' ')
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"');

const PIECES = [
  ...[' ', '  ', '\n', '\t', '\r\n', '\u00a0', '\u3000', '\ufeff', '\u2028', '\u1680', '\u200b'],
  ...['‘', '’', '“', '”', '"', "'", 'A', 'b', '中', 'Ａ', 'ﬁ', '\ud800', '😀', '\u0085', 'x y'],
];

describe('marker normalizing in one pass', () => {
  it('gives what the replacements gave, on 20,000 random texts', () => {
    const next = random(13);
    for (let k = 0; k < 20_000; k++) {
      let s = '';
      for (let n = Math.floor(next() * 16); n > 0; n--)
        s += PIECES[Math.floor(next() * PIECES.length)];
      expect(normalizeForMarkers(s), JSON.stringify(s)).toBe(before(s));
    }
  });

  it('and for every code unit, alone and in a run', () => {
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      const s = `a${ch}${ch}b${ch}`;
      expect(normalizeForMarkers(s), c.toString(16)).toBe(before(s));
    }
  });
});
