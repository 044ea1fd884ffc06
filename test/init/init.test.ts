// `stimkit init <dir>`: a small working study. Its check passes as written; with one image added
// (the example entry's file), the README's route goes through bundle, run, score and report, using
// stimkit:<name> references for every shipped file.
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

// Limits that grow with the load (test/helpers/limits.ts): 180 s a test on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(10) });

describe('stimkit init', () => {
  it('writes a study whose check passes; one image later, bundle, run, score and report work', async () => {
    const dir = path.join(await tempDir('stimkit-init-'), 'my-study');
    const made = await runCli(['init', dir, '--json']);
    expect(made.code, made.stderr).toBe(0);
    expect(made.json().files).toEqual([
      'README.md',
      'entries.yaml',
      'my.topics.yaml',
      'study.yaml',
      'models.yaml',
      'images/',
    ]);
    expect(await readdir(path.join(dir, 'images'))).toEqual([]);
    // Every shipped file is named stimkit:<name>; no path leaves the folder.
    const texts = await Promise.all(
      ['entries.yaml', 'my.topics.yaml', 'study.yaml', 'models.yaml'].map((f) =>
        readFile(path.join(dir, f), 'utf8'),
      ),
    );
    expect(texts.join('\n')).not.toMatch(/\.\.\//);
    expect(texts.join('\n')).toMatch(/extends: stimkit:geopolitics\.topics\.yaml/);
    expect(await readFile(path.join(dir, 'models.yaml'), 'utf8')).toMatch(/# +endpoint: http/);

    const checked = await runCli([
      'check',
      path.join(dir, 'study.yaml'),
      path.join(dir, 'models.yaml'),
      path.join(dir, 'my.topics.yaml'),
    ]);
    expect(checked.code, checked.stderr).toBe(0);

    await copyFile(
      path.join(ROOT, 'corpora', 'demo', 'rocket.jpg'),
      path.join(dir, 'images', 'example.jpg'),
    );
    const at = (f: string) => path.join(dir, f);
    const steps: string[][] = [
      ['check', at('entries.yaml')],
      ['bundle', at('study.yaml'), '--out', at('bundle'), '--work', at('work')],
      ['run', at('bundle'), '--models', at('models.yaml'), '--ledger', at('ledger.sqlite')],
      [
        'score',
        '--bundle',
        at('bundle'),
        '--ledger',
        at('ledger.sqlite'),
        '--models',
        at('models.yaml'),
        '--judge',
        'sim-judge',
        '--out',
        at('scores'),
      ],
      ['report', at('scores'), '--out', at('report')],
    ];
    for (const args of steps) {
      const r = await runCli(args);
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(0);
    }
    const items = JSON.parse(await readFile(at('bundle/data/items.json'), 'utf8'));
    expect(items.inputs.map((i: { file: string }) => i.file)).toEqual([
      'stimkit:geopolitics.topics.yaml',
      'my.topics.yaml',
    ]);
    const scored = await readFile(at('scores/trials.csv'), 'utf8');
    expect(scored.split('\n').filter(Boolean).length).toBe(1 + 66);
    expect(await readdir(at('report'))).toContain('index.html');
  });

  it('refuses a folder that is not empty, and changes nothing in it', async () => {
    const dir = await tempDir('stimkit-init-full-');
    await writeFile(path.join(dir, 'notes.txt'), 'mine');
    const r = await runCli(['init', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/E_INIT_NOT_EMPTY.*not empty \(notes\.txt\).*Fix: name a new folder/s);
    expect(await readdir(dir)).toEqual(['notes.txt']);
  });

  it('writes into an empty folder', async () => {
    const dir = path.join(await tempDir('stimkit-init-empty-'), 'empty');
    await mkdir(dir);
    expect((await runCli(['init', dir])).code).toBe(0);
    expect(await readdir(dir)).toContain('study.yaml');
  });
});
