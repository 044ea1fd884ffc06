/** The recipe: VARIANTS.md defaults, file and flag overrides, every bad value named with its allowed range (exit 1). */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StimkitError } from '../../src/core/errors.js';
import { RECIPE_SCHEMA_FILE, recipeSchemaText } from '../../src/variants/json-schema.js';
import { defaultRecipe, resolveRecipe } from '../../src/variants/recipe.js';
import { parseOnly } from '../../src/variants/ops/registry.js';
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
    expect(r.edges).toEqual({
      blur_ksize: 5,
      blur_sigma: 1.4,
      low_ratio: 0.66,
      high_ratio: 1.33,
      aperture: 3,
      l2_gradient: false,
    });
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
    await writeFile(
      file,
      'crop:\n  fraction: 1.5\nlowpass:\n  cutoff: 0\nedges:\n  blur_ksize: 4\noriginal:\n  max_side: 0\n  colour: red\n',
    );
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
    const err = await problemsOf(
      resolveRecipe(undefined, { cropFraction: 0, silhouette: 'magic' }),
    );
    const crop = err.problems.find((p) => p.field === 'crop.fraction')!;
    expect(crop.message).toMatch(/--crop-fraction/);
    expect(crop.expected).toBe('a number in (0, 1]');
    expect(err.problems.find((p) => p.field === 'silhouette.method')!.expected).toMatch(
      /isnet.*grabcut/,
    );
  });

  it.each([['otsuu'], [12.5], ['foo'], [300]])(
    'says what binary.threshold allows when given %j, in a file and as a flag',
    async (value) => {
      const dir = await tempDir();
      const file = path.join(dir, 'r.yaml');
      await writeFile(
        file,
        `crop:\n  fraction: 0.5\nbinary:\n  threshold: ${JSON.stringify(value)}\n`,
      );
      const inFile = (await problemsOf(resolveRecipe(file))).problems;
      expect(inFile).toHaveLength(1);
      expect(inFile[0]).toMatchObject({
        file,
        line: 4,
        field: 'binary.threshold',
        expected: '"otsu" or an integer 0–255',
      });
      expect(inFile[0]!.fix).toMatch(/binary\.threshold.*"otsu" or an integer 0–255/);
      // the command line passes numbers as numbers and anything else as given
      const flag = (await problemsOf(resolveRecipe(undefined, { binaryThreshold: value })))
        .problems;
      expect(flag).toHaveLength(1);
      expect(flag[0]).toMatchObject({
        field: 'binary.threshold',
        expected: '"otsu" or an integer 0–255',
        got: expect.stringContaining(String(value)),
      });
      expect(flag[0]!.message).toMatch(/--binary-threshold/);
      expect(flag[0]!.got).not.toMatch(/NaN/);
    },
  );

  it('accepts "otsu" and integers 0–255 for binary.threshold, also as numeric text', async () => {
    expect((await resolveRecipe(undefined, { binaryThreshold: 'otsu' })).binary.threshold).toBe(
      'otsu',
    );
    expect((await resolveRecipe(undefined, { binaryThreshold: '0' })).binary.threshold).toBe(0);
    expect((await resolveRecipe(undefined, { binaryThreshold: 255 })).binary.threshold).toBe(255);
  });

  it('checks the silhouette parameters of both methods when the recipe is resolved, with file, line and field', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'r.yaml');
    await writeFile(
      file,
      [
        'silhouette:',
        '  method: grabcut',
        '  isnet:',
        '    threshold: 1.5',
        '    modle: small',
        '  grabcut:',
        '    resolution: 8',
        'crop:',
        '  fraction: 2',
        '',
      ].join('\n'),
    );
    const err = await problemsOf(resolveRecipe(file));
    expect(err.code).toBe('E_VARIANTS_RECIPE');
    expect(err.exitCode).toBe(1);
    const byField = Object.fromEntries(err.problems.map((p) => [p.field, p]));
    expect(Object.keys(byField).sort()).toEqual([
      'crop.fraction',
      'silhouette.grabcut.resolution',
      'silhouette.isnet',
      'silhouette.isnet.threshold',
    ]);
    expect(byField['silhouette.isnet.threshold']).toMatchObject({
      code: 'E_SEGMENT_PARAM',
      file,
      line: 4,
      got: '1.5 of type number',
    });
    expect(byField['silhouette.isnet']).toMatchObject({
      code: 'E_SEGMENT_PARAM',
      file,
      line: 5,
      got: 'modle',
    });
    expect(byField['silhouette.isnet']!.expected).toMatch(/model.*threshold.*threads/);
    expect(byField['silhouette.grabcut.resolution']).toMatchObject({
      code: 'E_SEGMENT_PARAM',
      file,
      line: 7,
      got: '8 of type number',
    });
    expect(byField['silhouette.grabcut.resolution']!.expected).toMatch(/16/);
  });

  it('accepts valid silhouette parameters and leaves them as written', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'r.yaml');
    await writeFile(
      file,
      'silhouette:\n  isnet:\n    model: small\n  grabcut:\n    resolution: 200\n',
    );
    const r = await resolveRecipe(file);
    expect(r.silhouette.isnet).toEqual({ model: 'small' });
    expect(r.silhouette.grabcut).toEqual({ resolution: 200 });
  });

  it('rejects low_ratio above high_ratio', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'r.json');
    await writeFile(file, JSON.stringify({ edges: { low_ratio: 2, high_ratio: 1 } }));
    expect((await problemsOf(resolveRecipe(file))).problems[0]!.message).toMatch(
      /low_ratio must not exceed high_ratio/,
    );
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
