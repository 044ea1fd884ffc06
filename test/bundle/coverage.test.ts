/**
 * Language coverage at bundle time: a study in [en, zh, ja] over a corpus without ja titles or
 * expected facts is refused, naming each entry, the field and the fix (not sealed without a word).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { StimkitError } from '../../src/core/errors.js';
import { loadPromptCards } from '../../src/stimuli/prompts.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { FIXTURE_ENTRIES, FIXTURE_STUDY, writeFixtureProject } from './fixture.js';

let project: string;

beforeAll(async () => {
  project = path.join(await tempDir('stimkit-coverage-'), 'project');
  await writeFixtureProject(project);
  // Japanese prompt cards by data: a file that extends the shipped cards (texts copied from en,
  // enough for a plan; a real study would translate them).
  const cards = await loadPromptCards(path.join(project, 'prompts.yaml'));
  await writeFile(
    path.join(project, 'prompts.ja.yaml'),
    stringify({
      format: 'stimkit.prompts',
      version: 1,
      extends: 'prompts.yaml',
      languages: {
        ja: {
          name: 'Japanese',
          provenance: { status: 'drafted-pending-adjudication', derived_from: { lang: 'en' } },
        },
      },
      paradigms: Object.fromEntries(
        Object.entries(cards.paradigms).map(([name, c]) => [name, { text: { ja: c.text.en } }]),
      ),
    }),
  );
});

describe('language coverage of the corpus', () => {
  it('refuses a study language the entries have no titles or facts in, one problem per entry', async () => {
    const file = path.join(project, 'ja.study.yaml');
    await writeFile(
      file,
      stringify({
        ...FIXTURE_STUDY,
        prompts: 'prompts.ja.yaml',
        languages: ['en', 'zh', 'ja'],
        expect: [],
      }),
    );
    const err = await bundleStudy(file, { dryRun: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StimkitError);
    const problems = (err as StimkitError).problems;
    expect(new Set(problems.map((p) => p.code))).toEqual(new Set(['E_BUNDLE_LANGUAGE_COVERAGE']));
    expect(problems.map((p) => p.entry).sort()).toEqual([...FIXTURE_ENTRIES].sort());
    const core = problems.find((p) => p.entry === 'core-001')!;
    expect(core.file).toBe(path.join(project, 'mini.entries.yaml'));
    expect(core.field).toMatch(/^entries\[\d+\]\.title\.ja$/);
    expect(core.message).toContain('describe');
    expect(core.message).toContain('expected_facts[0].ja');
    expect(core.fix).toContain('title.ja');
    expect(core.fix).toContain('drop ja');

    const cli = await runCli(['bundle', file, '--dry-run', '--json']);
    expect(cli.code).toBe(1);
    expect(cli.json().error.code).toBe('E_BUNDLE_LANGUAGE_COVERAGE');
  });

  it('checks only the languages each paradigm runs in', async () => {
    // ja only for comment-text: the anchors lack ja titles (and names), nothing else is asked.
    const file = path.join(project, 'ja-one.study.yaml');
    const paradigms = {
      ...FIXTURE_STUDY.paradigms,
      'comment-text': { entries: { roles: ['anchor'] }, languages: ['ja'] },
    };
    await writeFile(
      file,
      stringify({ ...FIXTURE_STUDY, prompts: 'prompts.ja.yaml', paradigms, expect: [] }),
    );
    const err = (await bundleStudy(file, { dryRun: true }).catch(
      (e: unknown) => e,
    )) as StimkitError;
    expect(err.code).toBe('E_BUNDLE_LANGUAGE_COVERAGE');
    expect(
      err.problems.every((p) => p.message.startsWith('the study runs comment-text in ja')),
    ).toBe(true);
    expect(err.problems).toHaveLength(2);
  });

  it('passes when every language is covered', async () => {
    const r = await bundleStudy(path.join(project, 'fixture.study.yaml'), { dryRun: true });
    expect(r.trials).toBeGreaterThan(0);
  });
});

describe('count tables', () => {
  it('list languages in the study order, not alphabetically', async () => {
    const file = path.join(project, 'zh-first.study.yaml');
    const instrument = {
      ...FIXTURE_STUDY.instrument,
      arms: [{ id: 'main', languages: ['zh', 'en'], iterations: 3 }],
    };
    await writeFile(file, stringify({ ...FIXTURE_STUDY, languages: ['zh', 'en'], instrument }));
    const r = await bundleStudy(file, { dryRun: true });
    const langsOf = (block: string) =>
      r.counts.by_block.filter((c) => c.block === block).map((c) => c.lang);
    expect(langsOf('describe')).toEqual(['zh', 'en']);
    expect(langsOf('instrument/main')).toEqual(['zh', 'en']);
  });
});
