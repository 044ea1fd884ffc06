/**
 * The one CSV module: RFC 4180 text as before, cells a spreadsheet would run as formulas
 * neutralised (OWASP's CSV-injection rule), numbers left numeric, and the text given back on
 * reading. csv-parse read raw is the independent reference for what a spreadsheet receives.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  csvField,
  csvText,
  neutralizeCell,
  parseCsv,
  readCsvObjects,
  restoreCell,
} from '../../src/core/csv.js';
import { HOSTILE } from '../helpers/hostile.js';

describe('core/csv', () => {
  it('writes RFC 4180 as the score tables always did (quotes, commas, line breaks, numbers, booleans, null)', () => {
    expect(
      csvText(
        ['a', 'b', 'c'],
        [
          ['x,y', 'say "hi"', 'two\nlines'],
          [-0, 0.1 + 0.2, true],
          [null, undefined, false],
        ],
      ),
    ).toBe('a,b,c\n"x,y","say ""hi""","two\nlines"\n0,0.30000000000000004,true\n,,false\n');
    expect(csvText(['a'], [['b']], { eol: '\r\n' })).toBe('a\r\nb\r\n');
    expect(csvField('a,b')).toBe('"a,b"');
  });

  it('neutralises every cell a spreadsheet would run as a formula, and keeps numbers numeric', () => {
    const text = csvText(
      ['cell'],
      HOSTILE.map((h) => [h]),
    );
    const cells = parse(text)
      .slice(1)
      .map((r) => r[0]!);
    for (const [i, cell] of cells.entries()) {
      expect(cell, JSON.stringify(HOSTILE[i])).toBe(`'${HOSTILE[i]}`);
    }
    // Numbers, as numbers or as text, are not formulas: written as they are.
    const numbers = csvText(['n'], [[-2], ['-2'], ['+0.5'], ['-1e-3'], ['-.5'], [-1.25]]);
    expect(numbers).toBe('n\n-2\n-2\n+0.5\n-1e-3\n-.5\n-1.25\n');
    // Benign text is untouched.
    expect(neutralizeCell("'tis")).toBe("'tis");
    expect(neutralizeCell('a=b')).toBe('a=b');
  });

  it('reads back exactly the text written, and --csv-raw writes it as it is', () => {
    const text = csvText(
      ['cell'],
      HOSTILE.map((h) => [h]),
    );
    expect(parseCsv(text).rows.map((r) => r[0])).toEqual(HOSTILE);
    expect(readCsvObjects(text).map((r) => r.cell)).toEqual(HOSTILE);
    for (const h of HOSTILE) expect(restoreCell(neutralizeCell(h))).toBe(h);
    const raw = csvText(
      ['cell'],
      HOSTILE.map((h) => [h]),
      { raw: true },
    );
    expect(
      parse(raw)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(HOSTILE);
    expect(parseCsv(raw, { raw: true }).rows.map((r) => r[0])).toEqual(HOSTILE);
  });

  it('a ragged file is an error when asked, with the line', () => {
    expect(() => readCsvObjects('a,b\n1,2\n3\n', { ragged: false })).toThrow(/line 3/);
    expect(readCsvObjects('a,b\n1,2\n3\n')).toEqual([
      { a: '1', b: '2' },
      { a: '3', b: '' },
    ]);
  });
});
