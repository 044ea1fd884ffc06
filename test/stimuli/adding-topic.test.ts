/**
 * Adding a topic by data only: the worked example of docs/adding-a-topic.md is extracted from the
 * page (every fenced YAML block that starts with `# file: NAME`), written next to copies of the
 * shipped base files, loaded with the base's checks, and sealed into a study. If the page's example
 * stops working, this fails.
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { expandPairs } from '../../src/stimuli/pairs.js';
import { loadPromptCards } from '../../src/stimuli/prompts.js';
import { loadTopics } from '../../src/stimuli/topics.js';
import { loadWrapperPools } from '../../src/stimuli/wrappers.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { only, rejection } from './helpers.js';

/** The `# file:` YAML blocks of a markdown page, by file name. */
export function exampleFiles(markdown: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const m of markdown.matchAll(/```yaml\n# file: (\S+)\n([\s\S]*?)```/g))
    files.set(m[1]!, m[2]!);
  return files;
}

let dir: string;
let files: Map<string, string>;

beforeAll(async () => {
  dir = await tempDir('stimkit-add-topic-');
  for (const f of ['geopolitics.topics.yaml', 'wrappers.yaml', 'prompts.yaml'])
    await copyFile(path.join(ROOT, 'manifests', f), path.join(dir, f));
  files = exampleFiles(await readFile(path.join(ROOT, 'docs', 'adding-a-topic.md'), 'utf8'));
  for (const [name, text] of files) await writeFile(path.join(dir, name), text);
});

describe('adding a topic by data only (docs/adding-a-topic.md)', () => {
  it('the page holds the four example files', () => {
    expect([...files.keys()].sort()).toEqual([
      'arctic.study.yaml',
      'geopolitics.arctic.topics.yaml',
      'prompts.brief.yaml',
      'wrappers.extra.yaml',
    ]);
  });

  it('the new topic joins the base topics, keyed by the base keys, in every language', async () => {
    const t = await loadTopics(path.join(dir, 'geopolitics.arctic.topics.yaml'));
    expect(t.topics.map((x) => x.id)).toEqual([
      'taiwan',
      'trade',
      'south-china-sea',
      'xinjiang',
      'belt-and-road',
      'technology',
      'dollar',
      'arctic',
    ]);
    const arctic = t.topics.at(-1)!;
    expect(arctic).toMatchObject({
      key: 'CN',
      affirmative_pole: 'minus',
      poles: { plus: 'Pro-U.S.', minus: 'Pro-China' },
    });
    const items = expandPairs(t, ['en', 'zh']).filter((i) => i.topic === 'arctic');
    expect(items.map((i) => [i.id, i.polarity_key, i.provenance.status])).toEqual([
      ['arctic.en.affirmative', -1, 'authored'],
      ['arctic.en.reverse', 1, 'authored'],
      ['arctic.zh.affirmative', -1, 'drafted-pending-adjudication'],
      ['arctic.zh.reverse', 1, 'drafted-pending-adjudication'],
    ]);
    expect(items[1]!.text).toBe(
      'Expanding Chinese research stations in the Arctic would do more to threaten regional security than to advance scientific cooperation.',
    );
    // The base texts keep their own provenance.
    expect(expandPairs(t, ['en']).find((i) => i.topic === 'taiwan')!.provenance.status).toBe(
      'published',
    );
  });

  it('the wrapper and prompt additions load with the base checks', async () => {
    const pools = await loadWrapperPools(path.join(dir, 'wrappers.extra.yaml'));
    expect(pools.pools.en!.prefixes.at(-1)).toMatchObject({ id: 'en-p11', index: 10 });
    expect(pools.pools.en!.suffixes).toHaveLength(11);
    expect(pools.pools.zh!.prefixes).toHaveLength(10);
    const cards = await loadPromptCards(path.join(dir, 'prompts.brief.yaml'));
    expect(cards.paradigms['describe-brief']).toMatchObject({
      image: true,
      text: { en: 'Describe this photograph in one sentence.' },
    });
    expect(cards.paradigms.describe!.text.en).toBeTruthy();
  });

  it('a study seals the new topic', async () => {
    const out = path.join(dir, 'bundle');
    const r = await bundleStudy(path.join(dir, 'arctic.study.yaml'), { out });
    expect(r.trials).toBe(16);
    expect(new Set(r.plan.map((t) => t.topic))).toEqual(new Set(['arctic']));
    expect(r.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the base checks apply: a missing language, an unknown key, a suffix without the options', async () => {
    const topics = files.get('geopolitics.arctic.topics.yaml')!;
    const noZh = topics.slice(0, topics.indexOf('      zh:'));
    await writeFile(path.join(dir, 'no-zh.topics.yaml'), noZh);
    expect(
      only(
        (await rejection(loadTopics(path.join(dir, 'no-zh.topics.yaml')))).problems,
        'E_TOPICS_MISSING_LANGUAGE',
      ),
    ).toMatchObject({ entry: 'arctic' });
    await writeFile(path.join(dir, 'bad-key.topics.yaml'), topics.replace('key: CN', 'key: RU'));
    expect(
      only(
        (await rejection(loadTopics(path.join(dir, 'bad-key.topics.yaml')))).problems,
        'E_TOPICS_UNKNOWN_KEY',
      ),
    ).toMatchObject({ got: 'RU', expected: 'one of US, CN' });
    await writeFile(
      path.join(dir, 'bad-suffix.yaml'),
      files.get('wrappers.extra.yaml')!.replace(', Strongly disagree', ''),
    );
    expect(
      only(
        (await rejection(loadWrapperPools(path.join(dir, 'bad-suffix.yaml')))).problems,
        'E_WRAPPERS_SUFFIX_MISSING_OPTION',
      ),
    ).toMatchObject({ field: 'add_to_pools.en.suffixes[0].text' });
    await writeFile(
      path.join(dir, 'dup.yaml'),
      files.get('wrappers.extra.yaml')!.replace('en-p11', 'en-p01'),
    );
    expect(
      only(
        (await rejection(loadWrapperPools(path.join(dir, 'dup.yaml')))).problems,
        'E_WRAPPERS_DUPLICATE',
      ).message,
    ).toContain('en-p01');
  });

  it('stimkit pairs expands the extending file', async () => {
    const r = await runCli(['pairs', path.join(dir, 'geopolitics.arctic.topics.yaml'), '--json']);
    expect(r.code).toBe(0);
  });
});
