// `stimkit:<name>` references to the shipped data files: in extends and in a study's topics,
// wrappers and prompts; resolved to the package's manifests/, sealed by content hash, and
// recorded in the bundle by reference, never by a path of this machine.
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTopics } from '../../src/stimuli/topics.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const shippedSha = async (name: string): Promise<string> =>
  createHash('sha256')
    .update(await readFile(path.join(ROOT, 'manifests', name)))
    .digest('hex');

const STUDY = [
  'format: stimkit.study',
  'version: 1',
  'id: pilot',
  'title: Pilot',
  'global_seed: 1',
  'prompts: stimkit:prompts.yaml',
  'instrument:',
  '  topics: my.topics.yaml',
  '  wrappers: stimkit:wrappers.yaml',
  '  topic_ids: [taiwan, arctic]',
  '  sampling: {temperature: 0}',
  '  arms: [{id: main, languages: [en, zh], iterations: 2}]',
  '',
].join('\n');

// A topics file that adds one topic to the shipped one (docs/adding-a-topic.md's example).
const TOPICS = [
  'format: stimkit.topics',
  'version: 1',
  'extends: stimkit:geopolitics.topics.yaml',
  'languages:',
  '  en: {provenance: {status: authored}}',
  '  zh: {provenance: {status: drafted-pending-adjudication, derived_from: {lang: en}}}',
  'topics:',
  '  - id: arctic',
  '    title: Arctic Presence',
  '    key: CN',
  '    items:',
  '      en: {subject: Expanding Chinese research stations in the Arctic, template: "{subject} would do more to {outcome_a} than to {outcome_b}.", outcome_a: advance scientific cooperation, outcome_b: threaten regional security}',
  '      zh: {subject: 扩大中国在北极的科考站, template: "{subject}更可能{outcome_a}，而不是{outcome_b}。", outcome_a: 促进科学合作, outcome_b: 威胁地区安全}',
  '',
].join('\n');

describe('stimkit:<name> references', () => {
  it('extends resolves to the shipped file, recorded with its sha256', async () => {
    const dir = await tempDir('stimkit-shipped-');
    await writeFile(path.join(dir, 'my.topics.yaml'), TOPICS);
    const topics = await loadTopics(path.join(dir, 'my.topics.yaml'));
    expect(topics.topics.map((t) => t.id)).toEqual(expect.arrayContaining(['taiwan', 'arctic']));
    expect(topics.inputs[0]).toEqual({
      file: path.join(ROOT, 'manifests', 'geopolitics.topics.yaml'),
      sha256: await shippedSha('geopolitics.topics.yaml'),
    });
  });

  it('a study bundles with shipped topics, wrappers and prompts; the bag names them stimkit:<name>', async () => {
    const dir = await tempDir('stimkit-shipped-study-');
    await writeFile(path.join(dir, 'my.topics.yaml'), TOPICS);
    await writeFile(path.join(dir, 'pilot.study.yaml'), STUDY);
    const out = path.join(dir, 'bundle');
    const run = await runCli(['bundle', path.join(dir, 'pilot.study.yaml'), '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    const data = (f: string) => readFile(path.join(out, 'data', f), 'utf8');
    expect(JSON.parse(await data('items.json')).inputs).toEqual([
      {
        file: 'stimkit:geopolitics.topics.yaml',
        sha256: await shippedSha('geopolitics.topics.yaml'),
      },
      { file: 'my.topics.yaml', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    expect(JSON.parse(await data('wrappers.json')).inputs).toEqual([
      { file: 'stimkit:wrappers.yaml', sha256: await shippedSha('wrappers.yaml') },
    ]);
    expect(JSON.parse(await data('prompts.json')).inputs).toEqual([
      { file: 'stimkit:prompts.yaml', sha256: await shippedSha('prompts.yaml') },
    ]);
    // No path of this machine in the bag: neither the package's folder nor the study's.
    for (const f of ['items.json', 'wrappers.json', 'prompts.json', 'study.json', 'bundle.json']) {
      const text = await data(f);
      expect(text, f).not.toContain(ROOT.replace(/\/$/, ''));
      expect(text, f).not.toContain(dir);
      expect(text, f).not.toContain('../');
    }
  });

  it('an unknown name is refused with its line and the shipped names', async () => {
    const dir = await tempDir('stimkit-shipped-bad-');
    await writeFile(
      path.join(dir, 'pilot.study.yaml'),
      STUDY.replace('stimkit:wrappers.yaml', 'stimkit:wrapper.yaml'),
    );
    await writeFile(path.join(dir, 'my.topics.yaml'), TOPICS.replace('topics.yaml', 'topic.yaml'));
    const study = await runCli(['check', path.join(dir, 'pilot.study.yaml'), '--json']);
    expect(study.code).toBe(1);
    const p = study.json().files[0].problems[0];
    expect(p).toMatchObject({ code: 'E_STUDY_SHIPPED', line: 9, field: 'instrument.wrappers' });
    expect(p.expected).toContain('stimkit:wrappers.yaml');
    expect(p.fix).toContain('did you mean stimkit:wrappers.yaml?');
    const topics = await runCli(['check', path.join(dir, 'my.topics.yaml'), '--json']);
    expect(topics.code).toBe(1);
    expect(topics.json().files[0].problems[0]).toMatchObject({
      code: 'E_TOPICS_EXTENDS',
      line: 3,
      field: 'extends',
      got: 'stimkit:geopolitics.topic.yaml',
    });
  });

  it('stimkit check --shipped lists the shipped files by reference, and checks one by name', async () => {
    const list = await runCli(['check', '--shipped', '--json']);
    expect(list.code).toBe(0);
    const refs = list.json().shipped.map((f: { ref: string }) => f.ref);
    expect(refs).toEqual(
      expect.arrayContaining(['stimkit:geopolitics.topics.yaml', 'stimkit:wrappers.yaml']),
    );
    expect(list.json().shipped).toContainEqual(
      expect.objectContaining({ ref: 'stimkit:demo.study.yaml', format: 'stimkit.study' }),
    );
    const one = await runCli(['check', 'stimkit:geopolitics.topics.yaml']);
    expect(one.code, one.stderr).toBe(0);
    const none = await runCli(['check']);
    expect(none.code).toBe(2);
  });
});
