// The contrast helper of the report checks against published WCAG 2 values.
import { describe, expect, it } from 'vitest';
import { contrast, svgTexts } from './checks.js';

describe('contrast', () => {
  it('matches known WCAG 2 ratios on white', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2); // the lightest grey that passes AA
    expect(contrast('#009E73', '#fff')).toBeCloseTo(3.4, 1); // Okabe–Ito green
    expect(contrast('#D55E00', '#fff')).toBeCloseTo(3.9, 1); // Okabe–Ito vermillion
  });

  it('reads text fills from vega SVG, skipping hidden labels', () => {
    const svg =
      '<text fill="#000" opacity="1">a</text><text fill="#888" opacity="0">b</text><text>c</text>';
    expect(svgTexts(svg)).toEqual([
      { text: 'a', fill: '#000' },
      { text: 'c', fill: '#000000' },
    ]);
  });
});
