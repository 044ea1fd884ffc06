/** The CSV reader of `analyze` (csv-parse through core/csv.ts): quote-free files and quoted ones give the same rows and line numbers. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireFilled } from '../../src/analyze/columns.js';
import { column, readTable } from '../../src/analyze/table.js';
import { tempDir } from '../helpers/tmp.js';

const dir = await tempDir('stimkit-table-');
const write = (name: string, text: string) => {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return f;
};

describe('readTable', () => {
  it('reads a plain file with BOM, CRLF, blank lines and padded fields, with line numbers', () => {
    const t = readTable(write('plain.csv', '\ufeffa, b\r\n1,x \r\n\r\n2 ,y\r\n'));
    expect(t.columns).toEqual(['a', 'b']);
    expect(t.rows).toEqual([
      { a: '1', b: 'x' },
      { a: '2', b: 'y' },
    ]);
    expect(t.lines).toEqual([2, 4]);
    expect(t.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
  it('reads quoted fields (commas, quotes, newlines) with the line each record ends on', () => {
    const t = readTable(write('quoted.csv', 'a,b\n"1,5","say ""hi"""\n"multi\nline",z\n3,w\n'));
    expect(t.rows).toEqual([
      { a: '1,5', b: 'say "hi"' },
      { a: 'multi\nline', b: 'z' },
      { a: '3', b: 'w' },
    ]);
    expect(t.lines).toEqual([2, 4, 5]);
  });
  for (const [name, text, line] of [
    ['ragged plain', 'a,b\n1,2\n\n3\n', 4],
    ['ragged quoted', 'a,b\n"1",2\n3,4,5\n', 3],
  ] as const) {
    it(`rejects a ${name} row with its line`, () => {
      expect(() => readTable(write(`${name}.csv`.replace(' ', '-'), text))).toThrow(
        expect.objectContaining({
          code: 'E_ANALYZE_CSV',
          problems: [expect.objectContaining({ line })],
        }),
      );
    });
  }
  it('rejects an empty table, a duplicate header and a missing file', () => {
    expect(() => readTable(write('empty.csv', 'a,b\n'))).toThrow(
      expect.objectContaining({ code: 'E_ANALYZE_EMPTY' }),
    );
    expect(() => readTable(write('dup.csv', 'a,a\n1,2\n'))).toThrow(
      expect.objectContaining({ code: 'E_ANALYZE_HEADER' }),
    );
    expect(() => readTable(path.join(dir, 'nope.csv'))).toThrow(
      expect.objectContaining({ code: 'E_ANALYZE_READ' }),
    );
  });
  it('keeps the values column by column, the same for both parsers', () => {
    const plain = readTable(write('cols-plain.csv', 'a,b\n1,x\n2,y\n'));
    const quoted = readTable(write('cols-quoted.csv', 'a,b\n"1",x\n2,"y"\n'));
    for (const t of [plain, quoted]) {
      expect(t.n).toBe(2);
      expect(t.data).toEqual([
        ['1', '2'],
        ['x', 'y'],
      ]);
      expect(column(t, 'b')).toEqual(['x', 'y']);
      expect(column(t, 'c')).toBeUndefined();
    }
  });
  it('an empty cell is an error naming the line and the column, in plain and quoted files alike', () => {
    for (const [name, text] of [
      ['empty-plain.csv', 'a,b\n1,x\n\n2,\n'],
      ['empty-quoted.csv', 'a,b\n"1",x\n\n2,""\n'],
    ] as const) {
      const t = readTable(write(name, text));
      expect(() => requireFilled(t, ['a', 'b'], 'test')).toThrow(
        expect.objectContaining({
          code: 'E_ANALYZE_VALUE',
          problems: [expect.objectContaining({ line: 4, field: 'b', got: 'an empty cell' })],
        }),
      );
    }
  });
});
