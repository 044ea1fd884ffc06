/**
 * A small study project in a temporary folder: four synthetic entries (two anchors, one more core
 * entry, one abstraction entry) with their tiny images, copies of the shipped prompt cards, topics
 * and wrapper pools, and a study using every paradigm and an instrument arm. Tests edit its files
 * and bundle again.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { syntheticCorpus, syntheticPng } from '../../src/study/synthetic.js';
import { ROOT } from '../helpers/cli.js';

/** Ids of the fixture's entries (taken from the synthetic corpus). */
export const FIXTURE_ENTRIES = ['core-001', 'core-002', 'core-100', 'abstraction-01'];

export const FIXTURE_STUDY = {
  format: 'stimkit.study',
  version: 1,
  id: 'fixture',
  title: 'Fixture study',
  global_seed: 7,
  corpus: { entries: 'mini.entries.yaml' },
  variants: { lock: 'variants/variants.lock.json', silhouette: 'grabcut' },
  prompts: 'prompts.yaml',
  languages: ['en', 'zh'],
  seeds: [42],
  sampling: { temperature: 0.7, top_p: 0.8, top_k: 20, max_tokens: 1024, thinking: false },
  models: { vlm: ['model-a', 'model-b'], llm: ['model-c'] },
  default_models: 'vlm',
  paradigms: {
    describe: { entries: { roles: ['core'] } },
    'comment-image': { entries: { roles: ['anchor'] } },
    'comment-text': { entries: { roles: ['anchor'] } },
    abstraction: { entries: { roles: ['abstraction'] }, variants: ['A0', 'A3', 'A6'] },
    narrative: { entries: { roles: ['core'] } },
  },
  instrument: {
    topics: 'geopolitics.topics.yaml',
    wrappers: 'wrappers.yaml',
    topic_ids: ['taiwan', 'trade'],
    sampling: { temperature: 0 },
    models: 'llm',
    arms: [{ id: 'main', languages: ['en', 'zh'], iterations: 3 }],
  },
  expect: [
    // describe 3 + comment-image 2 + comment-text 2 + abstraction 3 (per language, one seed)
    {
      label: 'headline',
      blocks: ['describe', 'comment-image', 'comment-text', 'abstraction'],
      per_model: 20,
      total: 40,
    },
    { label: 'instrument', blocks: ['instrument/main'], per_model: 24, total: 24 },
  ],
};

/** Trials per model of the fixture study: 20 headline + 6 narrative + 24 instrument. */
export const FIXTURE_TRIALS = 50;

/** Write the fixture project into `dir`; returns the study file. */
export async function writeFixtureProject(
  dir: string,
  study: Record<string, unknown> = FIXTURE_STUDY,
): Promise<string> {
  await mkdir(path.join(dir, 'images'), { recursive: true });
  const { manifest, images } = syntheticCorpus();
  const entries = (manifest.entries as Array<{ id: string }>).filter((e) =>
    FIXTURE_ENTRIES.includes(e.id),
  );
  await writeFile(
    path.join(dir, 'mini.entries.yaml'),
    stringify({ ...manifest, corpus: 'mini', images: 'images', entries }),
  );
  for (const img of images.filter((i) => FIXTURE_ENTRIES.some((id) => i.file === `${id}.png`))) {
    await writeFile(path.join(dir, 'images', img.file), await syntheticPng(img.spec));
  }
  for (const f of ['prompts.yaml', 'geopolitics.topics.yaml', 'wrappers.yaml']) {
    await copyFile(path.join(ROOT, 'manifests', f), path.join(dir, f));
  }
  const file = path.join(dir, 'fixture.study.yaml');
  await writeFile(file, stringify(study));
  return file;
}

/** Replace `from` by `to` (exactly once) in a file of the project. */
export async function editFile(
  file: string,
  from: string,
  to: string,
): Promise<() => Promise<void>> {
  const original = await readFile(file, 'utf8');
  if (original.split(from).length !== 2)
    throw new Error(`"${from}" is not in ${file} exactly once`);
  await writeFile(file, original.replace(from, to));
  return () => writeFile(file, original);
}
