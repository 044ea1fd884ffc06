import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { StimkitError } from '../../src/core/errors.js';
import { STUDY_SCHEMA_FILE, studySchemaText } from '../../src/study/json-schema.js';
import { loadStudy } from '../../src/study/load.js';
import { runCli, ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { FIXTURE_STUDY } from '../bundle/fixture.js';

let dir: string;
beforeAll(async () => {
  dir = await tempDir('stimkit-study-');
});

let n = 0;
async function studyProblems(study: unknown, text?: string) {
  const file = path.join(dir, `s${n++}.study.yaml`);
  await writeFile(file, text ?? stringify(study));
  const err = await loadStudy(file).catch((e: unknown) => e);
  if (!(err instanceof StimkitError)) throw new Error('expected the study to be rejected');
  return err.problems;
}

const clone = () => JSON.parse(JSON.stringify(FIXTURE_STUDY)) as Record<string, any>;

describe('study files', () => {
  it('loads the shipped studies', async () => {
    for (const f of ['paper.study.yaml', 'demo.study.yaml']) {
      const s = await loadStudy(path.join(ROOT, 'manifests', f));
      expect(s.paradigms.length).toBeGreaterThan(0);
    }
  });

  it('reports schema problems with their lines and fields', async () => {
    const text =
      'format: stimkit.study\nversion: 1\nid: x\ntitle: t\nglobal_seed: -1\nsampling: {temperature: 0.7}\nparadigms:\n  describe: {entries: {roles: [core]}, colour: red}\n';
    const problems = await studyProblems(null, text);
    expect(problems.map((p) => [p.field, p.line])).toEqual([
      ['global_seed', 5],
      ['paradigms.describe', 8],
    ]);
  });

  it('rejects top_p 0 (vLLM requires 0 < top_p <= 1; greedy decoding leaves top_p out), wherever sampling is given', async () => {
    const s = clone();
    s.sampling.top_p = 0;
    s.instrument.sampling = { temperature: 0, top_p: 0 };
    s.paradigms.describe.sampling = { temperature: 0.7, top_p: 1 };
    const problems = await studyProblems(s);
    expect(problems.map((p) => p.field)).toEqual(['sampling.top_p', 'instrument.sampling.top_p']);
    expect(problems[0]!.message).toContain('leave top_p out');
  });

  it('rejects references that do not resolve and blocks that need what is missing', async () => {
    const s = clone();
    s.default_models = 'vlms';
    s.instrument.arms.push({ id: 'main', languages: ['en', 'en'], iterations: 1 });
    s.paradigms['comment-text'].entries.roles = ['core'];
    s.paradigms.describe.variants = ['A1'];
    s.expect = [
      { label: 'x', blocks: ['describe', 'instrument/other'], per_model: 1 },
      { label: 'y', blocks: ['describe', 'instrument/main'], per_model: 1, total: 2 },
    ];
    const codes = (await studyProblems(s)).map((p) => `${p.code} ${p.field}`).sort();
    expect(codes).toEqual(
      [
        'E_STUDY_UNKNOWN_MODEL_SET default_models',
        'E_STUDY_DUPLICATE instrument.arms[1].languages',
        'E_STUDY_DUPLICATE instrument.arms',
        'E_STUDY_COMMENT_TEXT_ROLE paradigms.comment-text.entries.roles',
        'E_STUDY_VARIANTS_FIELD paradigms.describe.variants',
        'E_STUDY_UNKNOWN_BLOCK expect[0].blocks[1]',
        'E_STUDY_TOTAL_MODELS expect[1].total',
      ].sort(),
    );
  });

  it('asks for a variants source when image paradigms are planned, and a corpus and prompts for any paradigm', async () => {
    const s = clone();
    delete s.variants;
    delete s.corpus;
    delete s.prompts;
    const codes = (await studyProblems(s)).map((p) => p.code).sort();
    expect(codes).toEqual(['E_STUDY_NO_CORPUS', 'E_STUDY_NO_PROMPTS', 'E_STUDY_NO_VARIANTS']);
  });

  it('requires lock paths to name the files the stages write', async () => {
    const s = clone();
    s.variants.lock = 'variants/lock.json';
    const problems = await studyProblems(s);
    expect(problems[0]).toMatchObject({ field: 'variants.lock' });
  });

  it('exits 1 from the command line with the problem listed', async () => {
    const file = path.join(dir, 'cli.study.yaml');
    await writeFile(file, stringify({ ...clone(), default_models: 'nope' }));
    const r = await runCli(['bundle', file, '--dry-run']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('E_STUDY_UNKNOWN_MODEL_SET');
  });

  it('has a current JSON Schema in manifests/schema/study.schema.json', async () => {
    expect(await readFile(STUDY_SCHEMA_FILE, 'utf8')).toBe(studySchemaText());
  });
});

describe('one rule for variants, sampling only where it is used', () => {
  it('accepts variant names as --only does (codes, names, code-name; any case) and keeps codes', async () => {
    const s = clone();
    s.paradigms.abstraction.variants = ['a0', 'edges', 'A6-Silhouette'];
    const file = path.join(dir, `names${n++}.study.yaml`);
    await writeFile(file, stringify(s));
    const loaded = await loadStudy(file);
    expect(loaded.study.paradigms.abstraction!.variants).toEqual(['A0', 'A3', 'A6']);
    s.paradigms.abstraction.variants = ['A0', 'sketch'];
    const problems = await studyProblems(s);
    expect(problems[0]).toMatchObject({
      code: 'E_STUDY_SCHEMA',
      field: 'paradigms.abstraction.variants[1]',
    });
    expect(problems[0]!.message).toContain('unknown variant "sketch"');
  });

  it('needs top-level sampling only when a VLM paradigm lacks its own', async () => {
    const instrumentOnly = clone();
    delete instrumentOnly.sampling;
    instrumentOnly.paradigms = {};
    delete instrumentOnly.corpus;
    delete instrumentOnly.variants;
    delete instrumentOnly.prompts;
    instrumentOnly.expect = [];
    const file = path.join(dir, `instr${n++}.study.yaml`);
    await writeFile(file, stringify(instrumentOnly));
    await expect(loadStudy(file)).resolves.toBeTruthy();

    const vlm = clone();
    delete vlm.sampling;
    const problems = await studyProblems(vlm);
    expect(problems.map((p) => p.code)).toEqual(['E_STUDY_NO_SAMPLING']);
    expect(problems[0]!.message).toContain('describe');
  });
});
