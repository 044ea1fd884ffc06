/** JSON that stimkit writes refuses the numbers JSON cannot carry, naming where they are. */
import { describe, expect, it } from 'vitest';
import { artifactJson, canonicalJson } from '../../src/core/json.js';

describe('artifactJson and canonicalJson', () => {
  it('name the path of the first number JSON cannot carry', () => {
    expect(() => artifactJson({ a: [1, { b: NaN }] })).toThrow(
      'cannot write NaN to JSON at $.a[1].b',
    );
    expect(() => canonicalJson({ x: { y: [0, 1, -Infinity] } })).toThrow(
      'cannot write -Infinity to JSON at $.x.y[2]',
    );
    expect(() => artifactJson(Infinity)).toThrow('cannot write Infinity to JSON at $');
  });
  it('write everything else, leaving undefined fields out', () => {
    expect(artifactJson({ a: [1, 2.5], b: undefined, c: { d: null } })).toBe(
      '{\n  "a": [\n    1,\n    2.5\n  ],\n  "c": {\n    "d": null\n  }\n}\n',
    );
    expect(canonicalJson({ b: 1, a: [true, 'x'] })).toBe('{"a":[true,"x"],"b":1}');
  });
});
