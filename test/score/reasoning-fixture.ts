/**
 * A small VLM study for the reasoning tests: two anchor entries with known expected facts and
 * aliases (a rocket and a portrait), the shipped prompt cards, comment-text in en and zh with one
 * seed; optionally the thinking factor. Responses are written by hand (a responses file) or into a
 * ledger (`reasoningLedger`), each with its reasoning channel.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { syntheticCorpus, syntheticPng } from '../../src/study/synthetic.js';
import { ROOT } from '../helpers/cli.js';
import { bundleTrials } from './fixture.js';
import type { Trial } from '../../src/bundle/format.js';

const PROVENANCE = { archive: 'stimkit test', credit: 'stimkit', license: 'CC0-1.0' };

/** Two entries: facts with their wording and aliases in en and zh. */
const ENTRIES = [
  {
    id: 'rocket',
    title: { en: 'A rocket launch', zh: '火箭发射' },
    topic: 'space',
    sensitivity: 'high',
    roles: ['core', 'anchor'],
    image: { file: 'rocket.png' },
    provenance: PROVENANCE,
    anchor: { name: { en: 'the launch', zh: '这次发射' } },
    narrative_markers: { en: ['glorious mission'], zh: ['光荣任务'] },
    expected_facts: [
      {
        id: 'falcon-9',
        en: 'The rocket is a SpaceX Falcon 9.',
        zh: '火箭是猎鹰9号。',
        aliases: { en: ['Falcon 9'], zh: ['猎鹰9号'] },
      },
      {
        id: 'dscovr',
        en: 'It carried DSCOVR.',
        zh: '搭载DSCOVR。',
        aliases: { en: ['DSCOVR'], zh: ['DSCOVR'] },
      },
    ],
  },
  {
    id: 'portrait',
    title: { en: 'A portrait', zh: '肖像' },
    topic: 'people',
    sensitivity: 'low',
    roles: ['core', 'anchor'],
    image: { file: 'portrait.png' },
    provenance: PROVENANCE,
    anchor: { name: { en: 'the astronaut', zh: '这位宇航员' } },
    expected_facts: [
      {
        id: 'collins',
        en: 'The person is Eileen Collins.',
        zh: '此人是艾琳·柯林斯。',
        aliases: { en: ['Eileen Collins'], zh: ['柯林斯'] },
      },
    ],
  },
];

/** Write and bundle the study in `dir` (with `thinking` as its factor when given). */
export async function reasoningBundle(
  dir: string,
  thinking?: Array<'on' | 'off'>,
): Promise<{ bundle: string; digest: string; trials: Trial[]; study: string }> {
  await mkdir(path.join(dir, 'images'), { recursive: true });
  const { images } = syntheticCorpus();
  for (const [i, e] of ENTRIES.entries())
    await writeFile(path.join(dir, 'images', e.image.file), await syntheticPng(images[i]!.spec));
  const manifest = { format: 'stimkit.entries', version: 1, corpus: 'reasoning', images: 'images', entries: ENTRIES };
  await writeFile(path.join(dir, 'reasoning.entries.yaml'), stringify(manifest));
  await copyFile(path.join(ROOT, 'manifests', 'prompts.yaml'), path.join(dir, 'prompts.yaml'));
  const study = {
    format: 'stimkit.study',
    version: 1,
    id: 'reasoning-fixture',
    title: 'reasoning fixture',
    global_seed: 3,
    corpus: { entries: 'reasoning.entries.yaml' },
    prompts: 'prompts.yaml',
    languages: ['en', 'zh'],
    seeds: [42],
    sampling: { temperature: 0.7, max_tokens: 256 },
    paradigms: { 'comment-text': { entries: { roles: ['anchor'] } } },
    ...(thinking ? { thinking } : {}),
  };
  const file = path.join(dir, 'reasoning.study.yaml');
  await writeFile(file, stringify(study));
  const bundle = path.join(dir, 'bundle');
  const r = await bundleStudy(file, { out: bundle, work: path.join(dir, 'work') });
  return { bundle, digest: r.digest!, trials: await bundleTrials(bundle), study: file };
}
