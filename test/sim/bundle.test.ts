/**
 * The simulator against a real sealed bundle (manifests/demo.study.yaml sealed from the committed
 * demo variants): loadSimBundle, every trial simulated for every proposed respondent, determinism
 * (same bytes on a fresh load and in another order; another seed or model name differs), and
 * malformed payload files.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { parse } from 'yaml';
import { bundleStudy } from '../../src/bundle/bundle.js';
import type { Trial } from '../../src/bundle/format.js';
import { StimkitError } from '../../src/core/errors.js';
import { sha256 } from '../../src/core/fsio.js';
import {
  loadSimBundle,
  SIM_PRESETS,
  simParamsSchema,
  simulate,
  type SimBundle,
} from '../../src/sim/index.js';
import { ROOT } from '../helpers/cli.js';
import { DEMO_MODELS, DEMO_VARIANTS_LOCK, requireCommitted } from '../helpers/committed.js';
import { tempDir } from '../helpers/tmp.js';
import { matchLabels } from './fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 306 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(17) });

describe('the simulator on the sealed demo bundle', () => {
  let bag: string;
  let digest: string;
  let bundle: SimBundle;
  let trials: Trial[];
  beforeAll(async () => {
    requireCommitted(DEMO_VARIANTS_LOCK);
    const root = await tempDir('stimkit-sim-bundle-');
    const r = await bundleStudy(path.join(ROOT, 'manifests', 'demo.study.yaml'), {
      out: path.join(root, 'bag'),
      work: path.join(root, 'work'),
    });
    bag = r.out!;
    digest = r.digest!;
    bundle = await loadSimBundle(bag);
    trials = (await readFile(path.join(bag, 'data', 'trials.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Trial);
  });

  it('reads entries, items and the pools of the study languages', () => {
    expect(bundle.digest).toBe(digest);
    expect(bundle.items.size).toBe(7 * 2 * 2);
    expect([...bundle.wrappers.keys()].sort()).toEqual(['en', 'zh']);
    expect(bundle.wrappers.get('zh')!.options.map((o) => o.label)).toEqual([
      '强烈同意',
      '同意',
      '不同意',
      '强烈不同意',
    ]);
    expect(bundle.entries.get('dscovr-launch')!.expected_facts.map((f) => f.id)).toContain(
      'falcon-9',
    );
    expect(bundle.entries.get('dscovr-launch')!.expected_facts[0]!.text.zh).toMatch(/猎鹰9号/);
  });

  it('answers every trial for every proposed respondent; instrument labels come from the pool of the trial language', () => {
    for (const preset of SIM_PRESETS) {
      const params = simParamsSchema.parse(preset.sim);
      for (const t of trials) {
        const r = simulate(params, preset.name, t, bundle);
        const truth = r.truth as { kind: string; label?: string | null; simulated: boolean };
        expect(truth.simulated).toBe(true);
        const kinds: Record<string, string> = { instrument: 'instrument', pressure: 'pressure' };
        expect(truth.kind).toBe(kinds[t.paradigm] ?? 'vlm');
        if (t.paradigm === 'instrument' && truth.label) {
          expect(
            matchLabels(
              r.text,
              bundle.wrappers.get(t.lang)!.options.map((o) => o.label),
            ),
          ).toEqual([truth.label]);
        }
      }
    }
  });

  it('is deterministic in (seed, model name, trial id): same bytes on a fresh load and in reverse order', async () => {
    const params = simParamsSchema.parse(SIM_PRESETS[3]!.sim);
    const a = trials.map((t) => JSON.stringify(simulate(params, 'm', t, bundle)));
    const fresh = await loadSimBundle(bag);
    const b = [...trials]
      .reverse()
      .map((t) =>
        JSON.stringify(simulate(simParamsSchema.parse(SIM_PRESETS[3]!.sim), 'm', t, fresh)),
      )
      .reverse();
    expect(b).toEqual(a);
    const otherSeed = trials.map((t) =>
      JSON.stringify(simulate({ ...params, seed: params.seed + 1 }, 'm', t, bundle)),
    );
    const otherModel = trials.map((t) => JSON.stringify(simulate(params, 'm2', t, bundle)));
    const differ = (xs: string[]) => xs.filter((x, i) => x !== a[i]).length;
    expect(differ(otherSeed)).toBeGreaterThan(trials.length / 4);
    expect(differ(otherModel)).toBeGreaterThan(trials.length / 4);
  });

  it('refuses a payload file that lacks what the simulator needs, naming the file (E_SIM_BUNDLE)', async () => {
    const copy = await tempDir('stimkit-sim-bad-');
    await cp(bag, copy, { recursive: true });
    const itemsFile = path.join(copy, 'data', 'items.json');
    const items = JSON.parse(await readFile(itemsFile, 'utf8'));
    delete items.items[3].polarity_key;
    const text = JSON.stringify(items);
    await writeFile(itemsFile, text);
    // sealed again, so that the check of the fields is reached (a changed file is refused first)
    const manifest = path.join(copy, 'manifest-sha256.txt');
    const lines = (await readFile(manifest, 'utf8')).split('\n');
    const sealed = lines.map((l) =>
      l.endsWith('  data/items.json') ? `${sha256(text)}  data/items.json` : l,
    );
    await writeFile(manifest, sealed.join('\n'));
    const err = await loadSimBundle(copy).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StimkitError);
    expect((err as StimkitError).code).toBe('E_SIM_BUNDLE');
    expect((err as StimkitError).problems[0]!.file).toMatch(/items\.json$/);
    expect((err as StimkitError).problems[0]!.field).toMatch(/items\[3\]\.polarity_key/);
  });

  it('refuses a study.json whose pressure.other_language is not a map of tags (E_SIM_BUNDLE)', async () => {
    const copy = await tempDir('stimkit-sim-bad-study-');
    await cp(bag, copy, { recursive: true });
    const studyFile = path.join(copy, 'data', 'study.json');
    const study = JSON.parse(await readFile(studyFile, 'utf8'));
    study.study.pressure = { other_language: { en: 5 } };
    const text = JSON.stringify(study);
    await writeFile(studyFile, text);
    const manifest = path.join(copy, 'manifest-sha256.txt');
    const lines = (await readFile(manifest, 'utf8')).split('\n');
    const sealed = lines.map((l) =>
      l.endsWith('  data/study.json') ? `${sha256(text)}  data/study.json` : l,
    );
    await writeFile(manifest, sealed.join('\n'));
    const err = await loadSimBundle(copy).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StimkitError);
    expect((err as StimkitError).code).toBe('E_SIM_BUNDLE');
    expect((err as StimkitError).problems[0]!.file).toMatch(/study\.json$/);
    expect((err as StimkitError).problems[0]!.field).toBe('study.pressure.other_language.en');
  });

  it('an instrument trial whose item is not in the bundle is an E_SIM_TRIAL error', () => {
    const t = trials.find((x) => x.paradigm === 'instrument')!;
    const params = simParamsSchema.parse({});
    expect(() => simulate(params, 'm', { ...t, item: 'nowhere.en.affirmative' }, bundle)).toThrow(
      /nowhere/,
    );
  });
});

describe('the sim: parameter schema', () => {
  it('fills every default, so sim: {} is a neutral, compliant respondent', () => {
    const p = simParamsSchema.parse({});
    expect(p.seed).toBe(0);
    expect(p.instrument).toMatchObject({
      conviction: 0,
      acquiescence: 0,
      noise: 0.5,
      strong_threshold: 1,
      neutral_rate: 0,
      refusal_rate: 0,
      style: 'bare',
    });
    expect(p.vlm).toMatchObject({
      fact_coverage: 0.8,
      refusal: { high: 0, low: 0 },
      drift: 0,
      style: 'prose',
    });
    expect(p.vlm.recognition.A6).toBeLessThan(p.vlm.recognition.A0);
  });

  it('rejects unknown fields, bad cell keys, rates outside [0, 1] and all-zero weights', () => {
    const bad = [
      { bogus: 1 },
      { instrument: { conviction: { cells: { taiwan: 1 } } } },
      { instrument: { refusal_rate: 1.5 } },
      { vlm: { refusal: { high: { zh: -0.1 } } } },
      { vlm: { refusal_styles: { policy: 0, vague: 0 } } },
      { instrument: { style: 'poem' } },
    ];
    for (const b of bad)
      expect(simParamsSchema.safeParse(b).success, JSON.stringify(b)).toBe(false);
  });

  it('accepts every proposed respondent', () => {
    for (const p of SIM_PRESETS)
      expect(simParamsSchema.safeParse(p.sim).success, p.name).toBe(true);
  });

  it('manifests/demo.models.yaml holds the proposed respondents, as documented', async () => {
    requireCommitted(DEMO_MODELS);
    const file = parse(await readFile(DEMO_MODELS, 'utf8')) as {
      models: Array<{ name: string; provider?: string; sim?: unknown }>;
    };
    const sims = file.models.filter((m) => m.provider === 'sim');
    for (const preset of SIM_PRESETS) {
      const m = sims.find((x) => x.name === preset.name);
      expect(m, `${preset.name} in demo.models.yaml`).toBeDefined();
      expect(simParamsSchema.parse(m!.sim), preset.name).toEqual(simParamsSchema.parse(preset.sim));
    }
  });
});
