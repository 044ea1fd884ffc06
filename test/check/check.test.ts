// `stimkit check`: any data file by its format, following extends, every problem of every file at once.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../src/check/index.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const m = (f: string) => path.join(ROOT, 'manifests', f);

describe('stimkit check', () => {
  it('accepts the shipped files of every kind, naming each format', async () => {
    const files = [
      m('geopolitics.pt.topics.yaml'),
      m('wrappers.zh-Hant.yaml'),
      m('prompts.zh-Hant.yaml'),
      m('demo.entries.yaml'),
      m('demo.study.yaml'),
      path.join(ROOT, 'corpora', 'demo', 'corpus.lock.json'),
    ];
    const r = await runCli(['check', ...files, '--json']);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.files.map((f: { format: string }) => f.format)).toEqual([
      'stimkit.topics',
      'stimkit.wrappers',
      'stimkit.prompts',
      'stimkit.entries',
      'stimkit.study',
      'stimkit.corpus',
    ]);
    expect(out.files[0].summary.languages).toEqual(['en', 'zh', 'pt']);
    expect(out.files[2].summary.languages).toEqual(['en', 'zh', 'zh-Hant']);
    // headline, narrative on and off, instrument, pressure (28 conversations × 4 turns)
    expect(out.files[4].summary.trials).toBe(216 + 48 + 112 + 112);
    expect(r.stderr).toContain('6 file(s) valid');
  });

  it('checks a prompt card file on its own, following extends, and reports every problem of every file', async () => {
    const dir = await tempDir('stimkit-check-');
    await writeFile(
      path.join(dir, 'prompts.ja.yaml'),
      [
        'format: stimkit.prompts',
        'version: 1',
        `extends: ${path.join(ROOT, 'manifests', 'prompts.yaml')}`,
        'languages: {ja: {provenance: {status: authored}}}',
        'paradigms:',
        '  describe: {text: {ja: "この写真の内容を説明してください。"}}',
        '  comment-text: {text: {ja: "説明してください。"}}',
      ].join('\n'),
    );
    await writeFile(
      path.join(dir, 'bad.entries.yaml'),
      'format: stimkit.entries\nversion: 1\ncorpus: x\nimages: imgs\nentries:\n  - id: a\n    titel: {en: A}\n',
    );
    await writeFile(path.join(dir, 'typo.yaml'), 'format: stimkit.topic\nversion: 1\n');
    const r = await runCli([
      'check',
      path.join(dir, 'prompts.ja.yaml'),
      path.join(dir, 'bad.entries.yaml'),
      path.join(dir, 'typo.yaml'),
      m('geopolitics.topics.yaml'),
      '--json',
    ]);
    expect(r.code).toBe(1);
    const [prompts, entries, typo, ok] = r.json().files;
    expect(prompts).toMatchObject({ ok: false, format: 'stimkit.prompts' });
    const codes = prompts.problems
      .map((p: { code: string; entry?: string }) => `${p.code} ${p.entry ?? ''}`.trim())
      .sort();
    // comment-text declares {subject} but the ja text has no slot; three base cards lack ja.
    expect(codes).toEqual([
      'E_PROMPTS_MISSING_LANGUAGE abstraction',
      'E_PROMPTS_MISSING_LANGUAGE comment-image',
      'E_PROMPTS_MISSING_LANGUAGE narrative',
      'E_PROMPTS_VARS comment-text',
    ]);
    expect(entries).toMatchObject({ ok: false, format: 'stimkit.entries' });
    expect(
      entries.problems.find((p: { message: string }) => p.message.includes('"titel"')).fix,
    ).toContain('rename "titel" to "title"');
    expect(typo.problems[0]).toMatchObject({
      code: 'E_CHECK_UNKNOWN_FORMAT',
      got: 'stimkit.topic',
      fix: 'did you mean "stimkit.topics"?',
    });
    expect(ok).toMatchObject({ ok: true, format: 'stimkit.topics' });
    expect(r.stderr).toContain('3 of 4 file(s) have problems');
  });

  it('checks pressure follow-up files, shipped and a bad one', async () => {
    const bad = path.join(await tempDir('stimkit-check-pressure-'), 'mine.pressure.yaml');
    await writeFile(
      bad,
      (await readFile(m('pressure/ru.yaml'), 'utf8')).replace(
        /^lang: ru$/m,
        'lang: ru\nlanguage: ru',
      ),
    );
    const r = await runCli(['check', 'stimkit:pressure/ug.yaml', bad, '--json']);
    expect(r.code).toBe(1);
    const [ug, mine] = r.json().files;
    expect(ug).toMatchObject({ ok: true, format: 'stimkit.pressure' });
    expect(ug.summary ?? ug).toMatchObject({ lang: 'ug' });
    expect(mine).toMatchObject({ ok: false, format: 'stimkit.pressure' });
    expect(mine.problems[0]).toMatchObject({ code: 'E_PRESSURE_FILE' });
  });

  it('checks models files and the judge rubric', async () => {
    const r = await runCli([
      'check',
      m('demo.models.yaml'),
      m('paper.models.yaml'),
      m('audit-rubric.yaml'),
      '--json',
    ]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.files.map((f: { format: string }) => f.format)).toEqual([
      'stimkit.models',
      'stimkit.models',
      'stimkit.rubric',
    ]);
    expect(out.files[0].summary.models).toContain('sim-acquiescer');
    expect(out.files[2].summary.digest).toMatch(/^[0-9a-f]{64}$/);
    const dir = await tempDir('stimkit-check-');
    await writeFile(
      path.join(dir, 'bad.models.yaml'),
      'format: stimkit.models\nversion: 1\nmodels:\n  - {name: a, endpoint: "http://127.0.0.1:1/v1", api_model: a}\n  - {name: a, endpoint: "http://127.0.0.1:1/v1", api_model: a}\n',
    );
    const bad = await runCli(['check', path.join(dir, 'bad.models.yaml'), '--json']);
    expect(bad.code).toBe(1);
    expect(bad.json().files[0].problems.map((p: { code: string }) => p.code)).toContain(
      'E_MODELS_DUPLICATE',
    );
  });

  it('checks a bundle folder with verify, and refuses no arguments as a usage error', async () => {
    const r = await runCli(['check', path.join(ROOT, 'manifests')]);
    expect(r.code).toBe(1);
    expect((await runCli(['check'])).code).toBe(2);
  });

  it('has one registry entry per format, each with a unique name', () => {
    const names = FORMATS.map((f) => f.format);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        'stimkit.entries',
        'stimkit.topics',
        'stimkit.wrappers',
        'stimkit.prompts',
        'stimkit.study',
        'stimkit.recipe',
      ]),
    );
  });
});
