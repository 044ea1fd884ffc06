// Characterization of the study checks: with every kind of design problem at once, the full list
// of problems in its order (study-level, then each paradigm, the instrument, expectations, and
// last the shipped-file references), each with its line, field, message, expected/got and fix.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { StimkitError, type Problem } from '../../src/core/errors.js';
import { loadStudy } from '../../src/study/load.js';
import { FIXTURE_STUDY } from '../bundle/fixture.js';
import { tempDir } from '../helpers/tmp.js';

/** A copy of the fixture study with every problem the design checks can find. */
function brokenStudy(): Record<string, any> {
  const s = JSON.parse(JSON.stringify(FIXTURE_STUDY)) as Record<string, any>;
  delete s.corpus;
  delete s.prompts;
  delete s.sampling;
  delete s.variants;
  s.default_models = 'vlms';
  s.languages = ['en', 'zh', 'en'];
  s.seeds = [1, 2, 1, 2];
  s.rubric = 'stimkit:nope.yaml';
  s.paradigms.describe = {
    entries: { roles: ['core'], ids: ['x', 'x'] },
    models: 'ghost',
    variants: ['A1'],
    languages: ['en', 'en'],
    seeds: [3, 3],
  };
  s.paradigms.abstraction.variants = ['A0', 'A3', 'A0'];
  s.paradigms.narrative.sampling = { temperature: 0.5 };
  s.paradigms['comment-text'].entries.roles = ['core'];
  s.instrument.models = 'nope';
  s.instrument.framings = ['reverse', 'reverse'];
  s.instrument.arms = [
    { id: 'main', languages: ['en', 'en'], iterations: 1, models: 'other' },
    { id: 'main', languages: ['zh'], iterations: 1 },
  ];
  s.expect = [
    { label: 'x', blocks: ['describe', 'instrument/other', 'nothing'], per_model: 1, total: 3 },
    { label: 'y', blocks: ['narrative', 'instrument/main'], per_model: 1, total: 2 },
  ];
  return s;
}

const listOnce = { code: 'E_STUDY_DUPLICATE', fix: 'list each once' };
const unknownSet = (name: string) => ({
  code: 'E_STUDY_UNKNOWN_MODEL_SET',
  message: `no model set "${name}" in models`,
  expected: 'one of vlm, llm',
  got: JSON.stringify(name),
  fix: `declare models.${name}: [model ids] or use a declared set`,
});
const unknownBlock = (b: string) => ({
  code: 'E_STUDY_UNKNOWN_BLOCK',
  message: `no block "${b}" in this study`,
  expected:
    'one of describe, comment-image, comment-text, abstraction, narrative, instrument/main, instrument/main',
  got: JSON.stringify(b),
  fix: 'name a paradigm (describe, …) or an instrument arm as instrument/<arm id>',
});

describe('study checks: every problem at once, in order', () => {
  it('lists each problem with its line, field, message and fix, in check order', async () => {
    const dir = await tempDir('stimkit-study-order-');
    const file = path.join(dir, 'broken.study.yaml');
    await writeFile(file, stringify(brokenStudy()));
    const err = await loadStudy(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StimkitError);
    const problems = (err as StimkitError).problems;
    expect((err as StimkitError).message).toBe(`${file}: 23 problem(s) in the study design`);
    const at = (line: number, field: string) => ({ severity: 'error' as const, file, line, field });
    const expected: Problem[] = [
      { ...at(21, 'default_models'), ...unknownSet('vlms') },
      { ...at(7, 'languages'), ...listOnce, message: 'languages lists en more than once' },
      { ...at(11, 'seeds'), ...listOnce, message: 'seeds lists 1, 2 more than once' },
      {
        ...at(23, 'paradigms'),
        code: 'E_STUDY_NO_CORPUS',
        message: 'the VLM paradigms need a corpus',
        fix: 'add corpus.entries: <entries manifest>',
      },
      {
        ...at(23, 'paradigms'),
        code: 'E_STUDY_NO_PROMPTS',
        message: 'the VLM paradigms need prompt cards',
        fix: 'add prompts: <prompts.yaml>',
      },
      {
        ...at(1, 'sampling'),
        code: 'E_STUDY_NO_SAMPLING',
        message:
          'the VLM paradigm(s) describe, comment-image, comment-text, abstraction need sampling parameters',
        expected: 'sampling: {temperature: …} at the top level (or in each paradigm)',
        got: 'no sampling',
        fix: "add sampling: {temperature: 0.7, top_p: 0.8, top_k: 20, max_tokens: 1024, thinking: false} (the audit paper's settings)",
      },
      {
        ...at(23, 'paradigms'),
        code: 'E_STUDY_NO_VARIANTS',
        message:
          'image paradigms show each entry as its A0 variant (decoded, oriented, sRGB, PNG), so they need a variants source',
        fix: 'add variants.lock: <path of the variants lock to reuse or write>',
      },
      { ...at(30, 'paradigms.describe.models'), ...unknownSet('ghost') },
      {
        ...at(32, 'paradigms.describe.variants'),
        code: 'E_STUDY_VARIANTS_FIELD',
        message: 'only the abstraction paradigm takes a list of variants (the others show A0)',
        fix: 'remove paradigms.describe.variants',
      },
      {
        ...at(34, 'paradigms.describe.languages'),
        ...listOnce,
        message: 'lists en more than once',
      },
      { ...at(37, 'paradigms.describe.seeds'), ...listOnce, message: 'lists 3 more than once' },
      { ...at(25, 'paradigms.describe.entries'), ...listOnce, message: 'lists x more than once' },
      {
        ...at(46, 'paradigms.comment-text.entries.roles'),
        code: 'E_STUDY_COMMENT_TEXT_ROLE',
        message: 'comment-text names the subject by its anchor name, so it selects anchor entries',
        expected: 'roles including anchor',
        got: '["core"]',
        fix: 'use roles: [anchor]',
      },
      {
        ...at(52, 'paradigms.abstraction.variants'),
        ...listOnce,
        message: 'lists A0 more than once',
      },
      { ...at(69, 'instrument.models'), ...unknownSet('nope') },
      { ...at(76, 'instrument.arms[0].models'), ...unknownSet('other') },
      {
        ...at(73, 'instrument.arms[0].languages'),
        ...listOnce,
        message: 'lists en more than once',
      },
      {
        ...at(71, 'instrument.arms'),
        code: 'E_STUDY_DUPLICATE',
        message: 'arm id(s) main used twice',
        fix: 'give each arm its own id',
      },
      { ...at(82, 'instrument.framings'), ...listOnce, message: 'lists reverse more than once' },
      { ...at(88, 'expect[0].blocks[1]'), ...unknownBlock('instrument/other') },
      { ...at(89, 'expect[0].blocks[2]'), ...unknownBlock('nothing') },
      {
        ...at(97, 'expect[1].total'),
        code: 'E_STUDY_TOTAL_MODELS',
        message: 'a total needs all its blocks to share one declared model set',
        got: 'vlms, other',
        fix: 'set models on the blocks (or default_models), or drop total',
      },
      {
        ...at(98, 'rubric'),
        code: 'E_STUDY_SHIPPED',
        message: 'stimkit:nope.yaml is not a file stimkit ships',
        expected: expect.stringContaining('stimkit:audit-rubric.yaml') as string,
        got: 'stimkit:nope.yaml',
        fix: 'name one of the shipped files (`stimkit check --shipped` lists them), or a path',
      },
    ];
    expect(problems).toEqual(expected);
  });

  it('loads a good study with its paradigms in plan order', async () => {
    const dir = await tempDir('stimkit-study-good-');
    const file = path.join(dir, 'good.study.yaml');
    await writeFile(file, stringify(FIXTURE_STUDY));
    const loaded = await loadStudy(file);
    expect(loaded.file).toBe(file);
    expect(loaded.dir).toBe(dir);
    expect(loaded.text).toBe(stringify(FIXTURE_STUDY));
    expect(loaded.paradigms.map(([p]) => p)).toEqual([
      'describe',
      'comment-image',
      'comment-text',
      'abstraction',
      'narrative',
    ]);
    expect(loaded.resolve('prompts.yaml')).toBe(path.join(dir, 'prompts.yaml'));
  });
});
