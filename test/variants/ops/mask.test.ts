/** A6 post-processing, exact: largest 8-connected component with the raster-order tie break, holes filled 4-connected. */
import { describe, expect, it } from 'vitest';
import { fillHoles, largestComponent } from '../../../src/variants/ops/mask.js';
import { renderSilhouette } from '../../../src/variants/ops/silhouette.js';
import { defaultRecipe } from '../../../src/variants/recipe.js';

const parse = (rows: string[]) => ({
  w: rows[0]!.length,
  h: rows.length,
  m: new Uint8Array(
    rows
      .join('')
      .split('')
      .map((c) => (c === '#' ? 1 : 0)),
  ),
});
const show = (m: Uint8Array, w: number) =>
  Array.from({ length: m.length / w }, (_, y) =>
    [...m.subarray(y * w, (y + 1) * w)].map((v) => (v ? '#' : '.')).join(''),
  );

describe('largest component', () => {
  it('joins diagonal neighbours (8-connectivity) and keeps the biggest', () => {
    const { w, h, m } = parse(['#....', '.#..#', '..#.#', '....#', '##...']);
    expect(show(largestComponent(m, w, h), w)).toEqual([
      '#....',
      '.#...',
      '..#..',
      '.....',
      '.....',
    ]);
  });

  it('breaks ties by the first pixel in raster order', () => {
    const { w, h, m } = parse(['...##', '.....', '##...']);
    expect(show(largestComponent(m, w, h), w)).toEqual(['...##', '.....', '.....']);
  });

  it('returns an empty mask for an empty one', () => {
    expect([...largestComponent(new Uint8Array(6), 3, 2)]).toEqual([0, 0, 0, 0, 0, 0]);
  });
});

describe('hole filling', () => {
  it('fills background not 4-connected to the border, keeps border-connected bays', () => {
    const { w, h, m } = parse(['#####.', '#...#.', '#.#.#.', '#...##', '###.#.']);
    // not a hole: the interior reaches the bottom edge through column 3
    expect(show(fillHoles(m, w, h), w)).toEqual(['#####.', '#...#.', '#.#.#.', '#...##', '###.#.']);
    const closed = parse(['#####', '#...#', '#.#.#', '#...#', '#####']);
    expect(show(fillHoles(closed.m, 5, 5), 5)).toEqual([
      '#####',
      '#####',
      '#####',
      '#####',
      '#####',
    ]);
  });

  it('does not leak through diagonal gaps (background is 4-connected)', () => {
    const { w, h, m } = parse(['.#...', '#.#..', '.#...']);
    expect(show(fillHoles(m, w, h), w)).toEqual(['.#...', '###..', '.#...']);
  });
});

describe('rendering', () => {
  it('draws the subject black on white after post-processing', () => {
    const { w, h, m } = parse(['.....', '.###.', '.#.#.', '.###.', '....#']);
    const r = renderSilhouette(m, w, h, defaultRecipe().silhouette);
    expect(
      show(
        r.image.data.map((v) => (v === 0 ? 1 : 0)),
        w,
      ),
    ).toEqual(['.....', '.###.', '.###.', '.###.', '....#']);
    expect(r.rawFraction).toBe(9 / 25);
  });

  it('rejects a mask of the wrong size', () => {
    expect(() => renderSilhouette(new Uint8Array(3), 2, 2, defaultRecipe().silhouette)).toThrow(
      /E_VARIANTS_SEGMENTER_MASK|4/,
    );
  });
});
