/**
 * An instrument-only study in a temporary folder, bundled: the shipped geopolitics topics (en, zh,
 * and the Portuguese control) and wrapper pools, copied from manifests/. Small by default (two
 * iterations) so that tests stay fast.
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { bundleStudy } from '../../src/bundle/bundle.js';
import type { Trial } from '../../src/bundle/format.js';
import { ROOT } from '../helpers/cli.js';

export interface InstrumentFixture {
  dir: string;
  bundle: string;
  digest: string;
}

/** Write and bundle an instrument study (`main`: en + zh, `pt-control`: pt) into `dir`. */
export async function instrumentBundle(
  dir: string,
  options: { iterations?: number; ptIterations?: number; seed?: number } = {},
): Promise<InstrumentFixture> {
  for (const f of ['geopolitics.topics.yaml', 'geopolitics.pt.topics.yaml', 'wrappers.yaml']) {
    await copyFile(path.join(ROOT, 'manifests', f), path.join(dir, f));
  }
  const arms: unknown[] = [
    { id: 'main', languages: ['en', 'zh'], iterations: options.iterations ?? 2 },
  ];
  if ((options.ptIterations ?? 1) > 0)
    arms.push({ id: 'pt-control', languages: ['pt'], iterations: options.ptIterations ?? 1 });
  const study = {
    format: 'stimkit.study',
    version: 1,
    id: 'instrument-fixture',
    title: 'instrument fixture',
    global_seed: options.seed ?? 42,
    languages: ['en', 'zh', 'pt'],
    sampling: { temperature: 0 },
    instrument: {
      topics: 'geopolitics.pt.topics.yaml',
      wrappers: 'wrappers.yaml',
      sampling: { temperature: 0 },
      arms,
    },
  };
  const file = path.join(dir, 'instrument.study.yaml');
  await writeFile(file, stringify(study));
  const bundle = path.join(dir, 'bundle');
  const r = await bundleStudy(file, { out: bundle });
  return { dir, bundle, digest: r.digest! };
}

/** The trials of a sealed bundle, in plan order. */
export async function bundleTrials(bundle: string): Promise<Trial[]> {
  return (await readFile(path.join(bundle, 'data', 'trials.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Trial);
}
