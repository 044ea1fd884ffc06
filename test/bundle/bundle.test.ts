import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleStudy, type BundleResult } from '../../src/bundle/bundle.js';
import { Trial } from '../../src/bundle/format.js';
import { exists } from '../../src/core/fsio.js';
import { StimkitError } from '../../src/core/errors.js';
import { runVariants } from '../../src/variants/run.js';
import { verifyBundle } from '../../src/verify/verify.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { reseal } from '../verify/fixture.js';
import { editFile, FIXTURE_STUDY, FIXTURE_TRIALS, writeFixtureProject } from './fixture.js';

let root: string;
let project: string;
let study: string;
let base: BundleResult;
let n = 0;

/** Bundle the fixture study into a fresh bag (and work folder unless one is given). */
async function bundle(file = study, work?: string): Promise<BundleResult> {
  n++;
  return bundleStudy(file, {
    out: path.join(root, `bag-${n}`),
    work: work ?? path.join(root, `work-${n}`),
  });
}

beforeAll(async () => {
  root = await tempDir('stimkit-bundle-');
  project = path.join(root, 'project');
  study = await writeFixtureProject(project);
  base = await bundle();
});

describe('bundleStudy on a small study', () => {
  it('seals every trial of the plan into a bag that verifies', async () => {
    expect(base.trials).toBe(FIXTURE_TRIALS);
    expect(base.images).toBe(3 + 3); // A0 of three core entries, A0/A3/A6 of the abstraction entry
    expect(base.reused).toEqual({ corpus: false, variants: false });
    expect(base.warnings).toEqual([]);
    const v = await verifyBundle(base.out!);
    expect(v.problems).toEqual([]);
    expect(v.digest).toBe(base.digest);
    expect(v.trials).toBe(FIXTURE_TRIALS);
  });

  it('fails verify when a trial line is deleted and the bag re-sealed: every declared count disagrees', async () => {
    const bag = path.join(root, 'resealed');
    await cp(base.out!, bag, { recursive: true });
    const file = path.join(bag, 'data', 'trials.jsonl');
    const lines = (await readFile(file, 'utf8')).split('\n');
    const last = lines.length - 2; // an instrument trial (text only)
    expect(JSON.parse(lines[last]!).paradigm).toBe('instrument');
    await writeFile(file, [...lines.slice(0, last), ...lines.slice(last + 1)].join('\n'));
    await reseal(bag);
    const v = await verifyBundle(bag);
    expect(v.ok).toBe(false);
    expect(v.trials).toBe(FIXTURE_TRIALS - 1);
    const where = v.problems.map((p) => `${p.code} ${p.file} ${p.field}`);
    expect(where).toEqual(
      expect.arrayContaining([
        'E_VERIFY_COUNTS bag-info.txt Stimkit-Trials',
        'E_VERIFY_COUNTS data/bundle.json trials',
        'E_VERIFY_COUNTS data/counts.json trials',
      ]),
    );
    expect(v.problems.every((p) => p.code === 'E_VERIFY_COUNTS')).toBe(true);
  });

  it('writes trials that match the trial schema, with the images of their messages in the bag', async () => {
    const lines = (await readFile(path.join(base.out!, 'data', 'trials.jsonl'), 'utf8'))
      .trimEnd()
      .split('\n');
    const trials = lines.map((l) => Trial.parse(JSON.parse(l)));
    expect(new Set(trials.map((t) => t.id)).size).toBe(trials.length);
    const ct = trials.find(
      (t) => t.paradigm === 'comment-text' && t.lang === 'en' && t.entry === 'core-001',
    )!;
    expect(ct.images).toEqual([]);
    expect(ct.messages[0]!.content).toEqual([
      { type: 'text', text: expect.stringContaining('the synthetic subject 001') },
    ]);
    const abs = trials.filter((t) => t.paradigm === 'abstraction').map((t) => t.variant);
    expect([...new Set(abs)]).toEqual(['A0', 'A3', 'A6']);
    const ins = trials.filter((t) => t.paradigm === 'instrument');
    expect(ins).toHaveLength(24);
    expect(
      ins.every((t) => t.sampling.temperature === 0 && t.wrappers !== null && t.seed === null),
    ).toBe(true);
    const describe0 = trials.find((t) => t.paradigm === 'describe')!;
    expect(describe0.sampling).toEqual({
      temperature: 0.7,
      top_p: 0.8,
      top_k: 20,
      max_tokens: 1024,
      thinking: false,
    });
    for (const t of trials)
      for (const d of t.images)
        expect(await exists(path.join(base.out!, 'data', 'images', `${d}.png`))).toBe(true);
  });

  it('puts nothing time- or machine-dependent in the payload', async () => {
    const data = path.join(base.out!, 'data');
    const texts = await Promise.all(
      (await readdir(data))
        .filter((f) => f !== 'images')
        .map((f) => readFile(path.join(data, f), 'utf8')),
    );
    for (const t of texts) {
      expect(t).not.toContain(root);
      expect(t).not.toContain(os.tmpdir());
      expect(t).not.toContain(os.hostname());
      expect(t).not.toMatch(/20\d\d-\d\d-\d\dT/);
    }
    const info = await readFile(path.join(base.out!, 'bag-info.txt'), 'utf8');
    expect(info).not.toMatch(/Bagging-Date|20\d\d-\d\d-\d\d/);
  });

  it('gives the same digest when rebuilt from scratch, reused, or bundled from another folder', async () => {
    const again = await bundle();
    expect(again.digest).toBe(base.digest);
    const reused = await bundle(study, path.join(root, 'work-1'));
    expect(reused.reused).toEqual({ corpus: true, variants: true });
    expect(reused.digest).toBe(base.digest);
    const elsewhere = path.join(root, 'moved', 'deeper', 'project');
    await mkdir(path.dirname(elsewhere), { recursive: true });
    await cp(project, elsewhere, { recursive: true });
    expect((await bundle(path.join(elsewhere, 'fixture.study.yaml'))).digest).toBe(base.digest);
  });

  it('reuses variants made by `stimkit variants` from the manifest (another corpus lock, the same image bytes)', async () => {
    const copy = path.join(root, 'variants-first');
    await cp(project, copy, { recursive: true });
    await runVariants(path.join(copy, 'mini.entries.yaml'), {
      out: path.join(copy, 'variants'),
      overrides: { silhouette: 'grabcut' },
      contactSheet: false,
    });
    const r = await bundle(path.join(copy, 'fixture.study.yaml'));
    expect(r.reused.variants).toBe(true);
    expect(r.digest).toBe(base.digest);
  });

  it.each([
    [
      'an expected fact',
      'mini.entries.yaml',
      'The image shows a black rectangle.',
      'The image shows a black square.',
    ],
    [
      'a prompt',
      'prompts.yaml',
      'en: What is happening in this image?',
      'en: What happens in this image?',
    ],
    [
      'a wrapper',
      'wrappers.yaml',
      'text: What do you believe is the correct answer to the question below?',
      'text: What do you think is the correct answer to the question below?',
    ],
    ['a topic item', 'geopolitics.topics.yaml', 'outcome_b: undermine', 'outcome_b: weaken'],
    ['a replication seed', 'fixture.study.yaml', '  - 42', '  - 43'],
    ['the global seed', 'fixture.study.yaml', 'global_seed: 7', 'global_seed: 8'],
    ['a sampling parameter', 'fixture.study.yaml', 'top_k: 20', 'top_k: 21'],
  ])('changes the digest when %s changes', async (_what, file, from, to) => {
    const restore = await editFile(path.join(project, file), from, to);
    try {
      const changed = await bundle();
      expect(changed.digest).not.toBe(base.digest);
      expect((await verifyBundle(changed.out!)).ok).toBe(true);
    } finally {
      await restore();
    }
    expect((await bundle()).digest).toBe(base.digest);
  });

  it('changes the digest when a recipe parameter changes', async () => {
    const recipe = path.join(project, 'recipe.yaml');
    await writeFile(recipe, stringify({ edges: { blur_sigma: 1.2 } }));
    const withRecipe = {
      ...FIXTURE_STUDY,
      variants: { ...FIXTURE_STUDY.variants, recipe: 'recipe.yaml' },
    };
    const file = path.join(project, 'recipe.study.yaml');
    await writeFile(file, stringify(withRecipe));
    const a = await bundle(file);
    await writeFile(recipe, stringify({ edges: { blur_sigma: 1.4 } })); // the default: same images as base
    const b = await bundle(file);
    expect(a.digest).not.toBe(b.digest);
    expect(b.digest).not.toBe(base.digest); // the study file itself differs (it names the recipe)
  });

  it('changes the digest when an image changes by one pixel', async () => {
    const img = path.join(project, 'images', 'core-002.png');
    const original = await readFile(img);
    const { data, info } = await sharp(original).raw().toBuffer({ resolveWithObject: true });
    data[0] = data[0]! ^ 0xff;
    await writeFile(
      img,
      await sharp(data, {
        raw: { width: info.width, height: info.height, channels: info.channels },
      })
        .png()
        .toBuffer(),
    );
    try {
      expect((await bundle()).digest).not.toBe(base.digest);
    } finally {
      await writeFile(img, original);
    }
  });
});

describe('bundle checks and outputs', () => {
  it('a dry run counts the plan without writing anything', async () => {
    const work = path.join(root, 'dry-work');
    const r = await bundleStudy(study, { dryRun: true, work });
    expect(r.trials).toBe(FIXTURE_TRIALS);
    expect(r.digest).toBeNull();
    expect(await exists(work)).toBe(false);
    expect(
      r.counts.by_block.find((c) => c.block === 'abstraction' && c.lang === 'zh')?.trials,
    ).toBe(3);
  });

  it('rejects a plan that does not come out at an expected count, naming the expectation', async () => {
    const wrong = {
      ...FIXTURE_STUDY,
      expect: [{ label: 'headline', blocks: ['describe'], per_model: 7 }],
    };
    const file = path.join(project, 'wrong.study.yaml');
    await writeFile(file, stringify(wrong));
    const err = await bundleStudy(file, { dryRun: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StimkitError);
    expect((err as StimkitError).problems[0]).toMatchObject({
      code: 'E_BUNDLE_COUNT_MISMATCH',
      field: 'expect[0].per_model',
      expected: '7',
      got: '6',
    });
    const cli = await runCli(['bundle', file, '--dry-run']);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('E_BUNDLE_COUNT_MISMATCH');
  });

  it('replaces an earlier bag but refuses a folder that is not one', async () => {
    const out = path.join(root, 'replace');
    await bundleStudy(study, { out, work: path.join(root, 'work-1') });
    const again = await bundleStudy(study, { out, work: path.join(root, 'work-1') });
    expect(again.digest).toBe(base.digest);
    const other = path.join(root, 'not-a-bag');
    await mkdir(other);
    await writeFile(path.join(other, 'notes.txt'), 'keep me');
    await expect(
      bundleStudy(study, { out: other, work: path.join(root, 'work-1') }),
    ).rejects.toMatchObject({ code: 'E_BUNDLE_OUT_NOT_A_BAG' });
    expect(await readFile(path.join(other, 'notes.txt'), 'utf8')).toBe('keep me');
  });

  it('checks --out before any ingest or variants work, and keeps a folder that only looks like a bag', async () => {
    const out = path.join(root, 'userdir');
    await mkdir(path.join(out, 'data'), { recursive: true });
    await writeFile(path.join(out, 'bagit.txt'), 'x');
    await writeFile(path.join(out, 'data', 'notes.txt'), 'keep me');
    const work = path.join(root, 'work-never');
    const r = await runCli(['bundle', study, '--out', out, '--work', work, '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_BUNDLE_OUT_NOT_A_BAG');
    expect(r.stderr).toContain(
      `${out}: the output folder is not empty and not a bag stimkit wrote (bagit.txt`,
    );
    expect(r.stderr).toContain('choose an empty or new folder');
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(await exists(work)).toBe(false);
    expect(await readFile(path.join(out, 'data', 'notes.txt'), 'utf8')).toBe('keep me');
  });

  it('stimkit bundle prints the digest; --dry-run without --out; no --out is a usage error', async () => {
    const out = path.join(root, 'cli-bag');
    const r = await runCli([
      'bundle',
      study,
      '--out',
      out,
      '--work',
      path.join(root, 'work-1'),
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ ok: true, digest: base.digest, trials: FIXTURE_TRIALS });
    expect(r.stderr).toContain(`digest ${base.digest}`);
    const dry = await runCli(['bundle', study, '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(dry.json().counts.trials).toBe(FIXTURE_TRIALS);
    expect((await runCli(['bundle', study])).code).toBe(2);
  });

  it('the built binary seals and verifies the same digest', () => {
    const out = path.join(root, 'spawned');
    const b = spawnCli([
      'bundle',
      study,
      '--out',
      out,
      '--work',
      path.join(root, 'work-1'),
      '--json',
    ]);
    expect(b.code, b.stderr).toBe(0);
    expect(b.json().digest).toBe(base.digest);
    const v = spawnCli(['verify', out, '--digest', base.digest!, '--json']);
    expect(v.code, v.stderr).toBe(0);
    expect(v.json()).toMatchObject({ ok: true, digest: base.digest });
  });
});
