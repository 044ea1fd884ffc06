/**
 * An Inspect sample id is the trial's design cell: the thinking factor's level is part of it, so
 * the same trial sent with thinking on and off is two samples (it is one epoch of each), while a
 * trial without the factor keeps the id it always had.
 */
import { describe, expect, it } from 'vitest';
import type { Trial } from '../../src/bundle/format.js';
import { sampleIdOf } from '../../src/export/inspect-design.js';

const cell = {
  arm: null,
  entry: 'coffee-cup',
  topic: null,
  variant: 'A0',
  lang: 'zh',
  framing: null,
} as const;

describe('sampleIdOf', () => {
  it('keeps the thinking level in the id; without the factor the id is as before', () => {
    const of = (thinking?: 'on' | 'off') => sampleIdOf({ ...cell, thinking } as Trial);
    expect(of()).toBe('coffee-cup.A0.zh');
    expect([of('on'), of('off')]).toEqual([
      'coffee-cup.A0.zh.thinking-on',
      'coffee-cup.A0.zh.thinking-off',
    ]);
  });
});
