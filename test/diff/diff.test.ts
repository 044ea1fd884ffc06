// `stimkit diff`: two bundles of one study before and after an amendment, compared by meaning.
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { diffValues } from '../../src/diff/values.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { FIXTURE_STUDY, writeFixtureProject } from '../bundle/fixture.js';

let root: string;
let a: string;
let b: string;

/** A study without image paradigms (no variants work): comment-text on the anchors, and the instrument. */
const STUDY = {
  ...FIXTURE_STUDY,
  variants: undefined,
  paradigms: { 'comment-text': { entries: { roles: ['anchor'] } } },
  expect: [],
};

beforeAll(async () => {
  root = await tempDir('stimkit-diff-');
  const v1 = path.join(root, 'v1');
  const study = await writeFixtureProject(v1, JSON.parse(JSON.stringify(STUDY)));
  a = path.join(root, 'bundle-a');
  await bundleStudy(study, { out: a, work: path.join(root, 'work-a') });

  // The amendment: a reworded comment-text prompt (en), a corrected fact (zh), an added topic
  // iteration, and another temperature for the instrument.
  const v2 = path.join(root, 'v2');
  await cp(v1, v2, { recursive: true });
  const prompts = path.join(v2, 'prompts.yaml');
  const p = parse(await readFile(prompts, 'utf8'));
  p.paradigms['comment-text'].text.en = 'Please tell me what you know about {subject}.';
  await writeFile(prompts, stringify(p));
  const entries = path.join(v2, 'mini.entries.yaml');
  const m = parse(await readFile(entries, 'utf8'));
  m.entries[0].expected_facts[0].zh = '改正后的事实。';
  await writeFile(entries, stringify(m));
  const s2 = JSON.parse(JSON.stringify(STUDY));
  s2.instrument.sampling = { temperature: 0.2 };
  s2.instrument.arms[0].iterations = 4;
  await writeFile(path.join(v2, 'fixture.study.yaml'), stringify(s2));
  b = path.join(root, 'bundle-b');
  await bundleStudy(path.join(v2, 'fixture.study.yaml'), {
    out: b,
    work: path.join(root, 'work-b'),
  });
});

describe('stimkit diff', () => {
  it('says which trials were added and which changed in which field', async () => {
    const r = await runCli(['diff', a, b, '--json']);
    expect(r.code).toBe(0);
    const d = r.json();
    expect(d.identical).toBe(false);
    expect(d.a.digest).not.toBe(d.b.digest);
    // iteration 3 of 2 topics × 2 languages × 2 framings
    expect(d.trials.added).toHaveLength(8);
    expect(d.trials.added.every((t: { paradigm: string }) => t.paradigm === 'instrument')).toBe(
      true,
    );
    expect(d.trials.removed).toEqual([]);
    // every instrument trial of iterations 0-2 has the new temperature; the en comment-text trials the new prompt
    expect(d.trials.by_field).toEqual({ sampling: 24, prompt: 2 });
    const ct = d.trials.changed.filter((t: { paradigm: string }) => t.paradigm === 'comment-text');
    expect(ct.map((t: { lang: string; fields: string[] }) => [t.lang, t.fields])).toEqual([
      ['en', ['prompt']],
      ['en', ['prompt']],
    ]);
    expect(d.entries.changed).toHaveLength(1);
    expect(d.entries.changed[0].fields).toEqual([
      { path: 'expected_facts[subject-shape].zh', a: expect.any(String), b: '改正后的事实。' },
    ]);
    expect(d.study.map((c: { path: string }) => c.path).sort()).toEqual([
      'instrument.arms[main].iterations',
      'instrument.sampling.temperature',
    ]);
    expect(d.stimuli.prompts.map((c: { path: string }) => c.path)).toEqual([
      'paradigms.comment-text.text.en',
    ]);
    expect(r.stderr).toContain('trials added: 8');
    expect(r.stderr).toContain('expected_facts[subject-shape].zh');
  });

  it('calls a bundle identical to itself, and refuses a folder that is not a bundle', async () => {
    const same = await runCli(['diff', a, a, '--json']);
    expect(same.json().identical).toBe(true);
    expect(same.stderr).toContain('identical');
    const bad = await runCli(['diff', a, root, '--json']);
    expect(bad.code).toBe(1);
    expect(bad.json().error.code).toBe('E_DIFF_NOT_A_BUNDLE');
  });

  it('refuses a bundle changed after sealing, naming the file, so a diff compares what the digests name', async () => {
    const changed = path.join(root, 'bundle-a-changed');
    await cp(a, changed, { recursive: true });
    const file = path.join(changed, 'data', 'entries.json');
    await writeFile(file, (await readFile(file, 'utf8')).replace('"en":', '"en": '));
    const r = await runCli(['diff', a, changed, '--json']);
    expect(r.code).toBe(1);
    const error = r.json().error;
    expect(error.code).toBe('E_DIFF_NOT_A_BUNDLE');
    expect(JSON.stringify(error)).toContain('entries.json');
    expect(JSON.stringify(error)).toContain('does not match manifest-sha256.txt');
  });

  it('compares lists of records by id', () => {
    expect(
      diffValues(
        {
          f: [
            { id: 'x', en: 'a' },
            { id: 'y', en: 'b' },
          ],
        },
        {
          f: [
            { id: 'y', en: 'b' },
            { id: 'x', en: 'c' },
          ],
        },
      ),
    ).toEqual([
      { path: 'f[x].en', a: 'a', b: 'c' },
      { path: 'f (order)', a: ['x', 'y'], b: ['y', 'x'] },
    ]);
  });
});
