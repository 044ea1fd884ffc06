/** The recipe: VARIANTS.md defaults, file and flag overrides, every bad value named with its allowed range (exit 1). */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StimkitError } from '../../src/core/errors.js';
import { RECIPE_SCHEMA_FILE, recipeSchemaText } from '../../src/variants/json-schema.js';
import { defaultRecipe, resolveRecipe } from '../../src/variants/recipe.js';
import { parseOnly } from '../../src/variants/registry.js';
import { tempDir } from '../helpers/tmp.js';

async function problemsOf(p: Promise<unknown>): Promise<StimkitError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StimkitError);
  return err as StimkitError;
}

describe('recipe', () => {
  it('defaults to VARIANTS.md', () => {
    const r = defaultRecipe();
    expect(r.original).toEqual({ max_side: 1024, kernel: 'lanczos3' });
    expect(r.crop.fraction).toBe(0.6);
    expect(r.edges).toEqual({ blur_ksize: 5, blur_sigma: 1.4, low_ratio: 0.66, high_ratio: 1.33, aperture: 3, l2_gradient: false });
    expect(r.binary.threshold).toBe('otsu');
    expect(r.lowpass).toEqual({ filter: 'gaussian', cutoff: 0.05, channels: 'grey' });
    expect(r.silhouette.method).toBe('isnet');
    expect(r.silhouette.keep_largest_component && r.silhouette.fill_holes).toBe(true);
  });

  it('takes any subset of fields from a file, and flags over the file', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'r.yaml');
    await writeFile(file, 'crop:\n  fraction: 0.5\nlowpass:\n  filter: ideal\n');
    const r = await resolveRecipe(file, { cutoff: 0.1 });
    expect(r.crop.fraction).toBe(0.5);
    expect(r.lowpass).toEqual({ filter: 'ideal', cutoff: 0.1, channels: 'grey' });
    expect(r.edges.low_ratio).toBe(0.66);
  });

  it('names every out-of-range field of a file with its line and allowed range', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'bad.yaml');
    await writeFile(file, 'crop:\n  fraction: 1.5\nlowpass:\n  cutoff: 0\nedges:\n  blur_ksize: 4\noriginal:\n  max_side: 0\n  colour: red\n');
    const err = await problemsOf(resolveRecipe(file));
    expect(err.code).toBe('E_VARIANTS_RECIPE');
    expect(err.exitCode).toBe(1);
    const byField = Object.fromEntries(err.problems.map((p) => [p.field, p]));
    expect(byField['crop.fraction']).toMatchObject({ line: 2, expected: 'a number in (0, 1]' });
    expect(byField['lowpass.cutoff']).toMatchObject({ line: 4, expected: 'a number in (0, 1]' });
    expect(byField['edges.blur_ksize']!.message).toMatch(/odd/);
    expect(byField['original.max_side']).toMatchObject({ expected: 'an integer in [1, 16384]' });
    expect(byField.original!.message).toMatch(/unknown field.*colour/);
  });

  it('names the flag of a bad flag value', async () => {
    const err = await problemsOf(resolveRecipe(undefined, { cropFraction: 0, silhouette: 'magic' }));
    const crop = err.problems.find((p) => p.field === 'crop.fraction')!;
    expect(crop.message).toMatch(/--crop-fraction/);
    expect(crop.expected).toBe('a number in (0, 1]');
    expect(err.problems.find((p) => p.field === 'silhouette.method')!.expected).toMatch(/isnet.*grabcut/);
  });

  it('rejects low_ratio above high_ratio', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'r.json');
    await writeFile(file, JSON.stringify({ edges: { low_ratio: 2, high_ratio: 1 } }));
    expect((await problemsOf(resolveRecipe(file))).problems[0]!.message).toMatch(/low_ratio must not exceed high_ratio/);
  });

  it('the committed JSON Schema is current', async () => {
    expect(await readFile(RECIPE_SCHEMA_FILE, 'utf8')).toBe(recipeSchemaText());
  });
});

describe('--only', () => {
  it('accepts codes and names in any case, in ladder order', () => {
    expect(parseOnly(['a5', 'A3', 'edges'])).toEqual(['A3', 'A5']);
    expect(parseOnly(undefined)).toEqual(['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6']);
  });

  it('rejects an unknown code (exit 1) listing the codes', () => {
    try {
      parseOnly(['A3', 'A9']);
      expect.unreachable();
    } catch (e) {
      const err = e as StimkitError;
      expect(err.code).toBe('E_VARIANTS_UNKNOWN_CODE');
      expect(err.exitCode).toBe(1);
      expect(err.message).toMatch(/"A9".*A0 \(original\)/);
    }
  });
});
