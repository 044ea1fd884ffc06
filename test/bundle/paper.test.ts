/**
 * The papers' designs (manifests/paper.study.yaml on the synthetic corpus) must come out at the
 * papers' counts. The numbers below are the papers' own (audit paper: Design, Table A3,
 * Appendix I; instrument paper: Methods), not read from the study file.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { bundleStudy, type BundleResult } from '../../src/bundle/bundle.js';
import { verifyBundle } from '../../src/verify/verify.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

// Limits that grow with the load (test/helpers/limits.ts): 306 s a test on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(17) });

const PAPER = path.join(ROOT, 'manifests', 'paper.study.yaml');
const VLM_MODELS = 9;
const LLM_MODELS = 11;

let dry: BundleResult;
beforeAll(async () => {
  dry = await bundleStudy(PAPER, { dryRun: true });
});

const perModel = (...blocks: string[]) => dry.plan.filter((t) => blocks.includes(t.block)).length;

describe('the paper-shaped study', () => {
  it('gives the audit paper’s counts per model and for nine models', () => {
    expect(perModel('describe')).toBe(1200);
    expect(perModel('comment-image')).toBe(312);
    expect(perModel('comment-text')).toBe(312);
    expect(perModel('abstraction')).toBe(588);
    const headline = perModel('describe', 'comment-image', 'comment-text', 'abstraction');
    expect(headline).toBe(2412);
    expect(headline * VLM_MODELS).toBe(21708);
    expect(perModel('describe') * VLM_MODELS).toBe(10800);
    expect(perModel('comment-image') * VLM_MODELS).toBe(2808);
    expect(perModel('abstraction') * VLM_MODELS).toBe(5292);
    const zh = dry.plan.filter(
      (t) =>
        ['describe', 'comment-image', 'comment-text', 'abstraction'].includes(t.block) &&
        t.lang === 'zh',
    ).length;
    expect(zh * VLM_MODELS).toBe(10854);
    expect(perModel('narrative')).toBe(1200);
    expect(perModel('narrative') * VLM_MODELS).toBe(10800);
  });

  it('gives the instrument paper’s counts per model and for eleven models', () => {
    expect(perModel('instrument/main')).toBe(1792);
    expect(perModel('instrument/main') * LLM_MODELS).toBe(19712);
    expect(perModel('instrument/pt-control')).toBe(448);
    expect(perModel('instrument/pt-control') * LLM_MODELS).toBe(4928);
    const cells = new Set(
      dry.plan
        .filter((t) => t.block === 'instrument/main')
        .map((t) => `${t.topic}|${t.lang}|${t.framing}`),
    );
    expect(cells.size * LLM_MODELS).toBe(308); // the paper's 308 condition cells
    expect(
      new Set(dry.plan.filter((t) => t.block === 'instrument/main').map((t) => t.iteration)).size,
    ).toBe(64);
  });

  it('reports the same numbers in its counts, with the model sets, and checks them', () => {
    const blocks = Object.fromEntries(
      dry.counts.blocks.map((b) => [b.block, [b.trials, b.planned_requests]]),
    );
    expect(blocks).toEqual({
      describe: [1200, 10800],
      'comment-image': [312, 2808],
      'comment-text': [312, 2808],
      abstraction: [588, 5292],
      narrative: [1200, 10800],
      'instrument/main': [1792, 19712],
      'instrument/pt-control': [448, 4928],
    });
    expect(dry.counts.expectations.every((e) => e.ok)).toBe(true);
    expect(dry.trials).toBe(2412 + 1200 + 1792 + 448);
  });

  it('warns that the Portuguese control rests on draft translations, and nothing else', () => {
    expect(dry.warnings.length).toBeGreaterThan(0);
    expect(
      dry.warnings.every((w) => w.code === 'W_BUNDLE_DRAFT_TEXT' && w.message.includes(' in pt ')),
    ).toBe(true);
    expect(dry.warnings.some((w) => w.message.startsWith('14 instrument item(s) in pt'))).toBe(
      true,
    );
  });

  it('touches 298 distinct images: 200 core A0 plus 14 × 7 abstraction variants', () => {
    expect(dry.images).toBe(298);
  });

  it(
    'bundles offline into a bag that verifies, with the same digest when rebuilt',
    { timeout: heavyLimit(17) },
    async () => {
      const root = await tempDir('stimkit-paper-');
      const work = path.join(root, 'work');
      const a = await bundleStudy(PAPER, { out: path.join(root, 'a'), work });
      expect(a.trials).toBe(5852);
      expect(a.images).toBe(298);
      const v = await verifyBundle(a.out!);
      expect(v.problems).toEqual([]);
      expect(v.images).toBe(298);
      const b = await bundleStudy(PAPER, { out: path.join(root, 'b'), work });
      expect(b.reused).toEqual({ corpus: true, variants: true });
      expect(b.digest).toBe(a.digest);
      expect(await readFile(path.join(a.out!, 'manifest-sha256.txt'))).toEqual(
        await readFile(path.join(b.out!, 'manifest-sha256.txt')),
      );
    },
  );
});
