/**
 * `stimkit bundle` repeats the variants' quality warnings for the images its trials show, and
 * `--strict` refuses to seal them: the fixture study with its abstraction entry's image replaced
 * by a flat grey one (no edges for A3, nothing for A6 to find).
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { bundleStudy } from '../../src/bundle/bundle.js';
import type { ShownWarning } from '../../src/bundle/variant-warnings.js';
import { StimkitError } from '../../src/core/errors.js';
import { tempDir } from '../helpers/tmp.js';
import { writeFixtureProject } from './fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 306 s a test on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(17) });

let root: string;
let study: string;

beforeAll(async () => {
  root = await tempDir('stimkit-bundle-quality-');
  study = await writeFixtureProject(path.join(root, 'project'));
  await sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 150, g: 150, b: 150 } },
  })
    .png()
    .toFile(path.join(root, 'project', 'images', 'abstraction-01.png'));
});

describe('bundle and quality warnings', () => {
  it('warns for every shown variant with a quality warning, with the trials that show it', async () => {
    const r = await bundleStudy(study, {
      out: path.join(root, 'bag'),
      work: path.join(root, 'work'),
    });
    expect(r.digest).toMatch(/^[0-9a-f]{64}$/);
    const shown = r.warnings.filter((w) => w.code.startsWith('W_VARIANTS_')) as ShownWarning[];
    const a3 = shown.find((w) => w.entry === 'abstraction-01' && w.variant === 'A3');
    // the abstraction paradigm shows A3 once per language (en, zh), one seed
    expect(a3).toMatchObject({ code: 'W_VARIANTS_A3_FEW_EDGES', trials: 2, value: 0 });
    expect(a3!.message).toMatch(
      /abstraction-01 A3 \(shown in 2 trial\(s\)\): the edge map has almost no edges/,
    );
    expect(shown.some((w) => w.entry === 'abstraction-01' && w.variant === 'A6')).toBe(true);
    expect(shown.every((w) => ['A0', 'A3', 'A6'].includes(w.variant))).toBe(true); // only what trials show
  });

  it('--strict refuses to seal them and writes no bag', async () => {
    const out = path.join(root, 'bag-strict');
    const err = await bundleStudy(study, {
      out,
      work: path.join(root, 'work'),
      strict: true,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StimkitError);
    expect((err as StimkitError).code).toBe('E_BUNDLE_QUALITY');
    expect((err as StimkitError).problems.map((p) => p.code)).toContain('W_VARIANTS_A3_FEW_EDGES');
    expect(await readdir(out).catch(() => [])).toEqual([]);
  });
});
