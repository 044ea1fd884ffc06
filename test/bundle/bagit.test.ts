import { describe, expect, it } from 'vitest';
import {
  bagSize,
  decodeManifestPath,
  encodeManifestPath,
  formatBagInfo,
  formatManifest,
  parseBagInfo,
  parseManifest,
  parseOxum,
} from '../../src/bundle/bagit.js';

describe('BagIt text formats', () => {
  it('percent-encodes only CR, LF and % in manifest paths, and decodes them back', () => {
    const p = 'data/50%\r\nodd name é.txt';
    expect(encodeManifestPath(p)).toBe('data/50%25%0D%0Aodd name é.txt');
    expect(decodeManifestPath(encodeManifestPath(p))).toBe(p);
    expect(decodeManifestPath('data/a%20b')).toBe('data/a%20b');
  });

  it('sorts manifest lines by the UTF-8 bytes of the path and round-trips them', () => {
    const text = formatManifest([
      { path: 'data/é', digest: 'cc' },
      { path: 'data/Z', digest: 'aa' },
      { path: 'data/a', digest: 'bb' },
    ]);
    expect(text).toBe('aa  data/Z\nbb  data/a\ncc  data/é\n');
    expect(parseManifest(text).lines.map((l) => l.path)).toEqual(['data/Z', 'data/a', 'data/é']);
    expect(parseManifest('nothex\n').errors).toHaveLength(1);
    expect(parseManifest('AB\tdata/x\r\n').lines).toEqual([{ digest: 'ab', path: 'data/x' }]);
  });

  it('writes bag-info lines and reads continuation lines', () => {
    expect(formatBagInfo([['External-Description', 'two\nlines']])).toBe(
      'External-Description: two lines\n',
    );
    expect(() => formatBagInfo([['Bad Label', 'x']])).toThrow();
    expect(parseBagInfo('A: one\n  two\nB:three\n').fields).toEqual([
      ['A', 'one two'],
      ['B', 'three'],
    ]);
  });

  it('reads Payload-Oxum and prints Bag-Size', () => {
    expect(parseOxum('123.4')).toEqual({ octets: 123, files: 4 });
    expect(parseOxum('12 .4')).toBeNull();
    expect(bagSize(999)).toBe('999 B');
    expect(bagSize(1_250_000)).toBe('1.3 MB');
  });
});
