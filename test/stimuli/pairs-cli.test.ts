// `stimkit pairs --out`: the artifact (format, version, tool, inputs with sha256, parameters),
// deterministic bytes, atomic write, the human table, and the real binary.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/core/fsio.js';
import { ROOT, runCli, spawnCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const M = (f: string) => path.join(ROOT, 'manifests', f);

describe('stimkit pairs --out', () => {
  it('writes the artifact with its header; a second run leaves the same bytes', async () => {
    const dir = await tempDir('stimkit-pairs-');
    const out = path.join(dir, 'sub', 'pairs.json');
    const first = await runCli([
      'pairs',
      M('geopolitics.zh-Hant.topics.yaml'),
      '--langs',
      'zh,zh-Hant',
      '--out',
      out,
      '--json',
    ]);
    expect(first.code).toBe(0);
    const summary = first.json();
    expect(summary.written).toBe(true);
    const text = await readFile(out, 'utf8');
    expect(summary.out_sha256).toBe(sha256(text));
    const artifact = JSON.parse(text);
    expect(artifact).toMatchObject({
      format: 'stimkit.pairs',
      version: 1,
      tool: { name: 'stimkit' },
      parameters: { languages: ['zh', 'zh-Hant'], framings: ['affirmative', 'reverse'] },
      counts: { topics: 7, languages: 2, items: 28, drafts: 14 },
    });
    // Inputs: relative to the artifact's folder, with the sha256 of each file's bytes.
    expect(artifact.inputs.map((i: { role: string }) => i.role)).toEqual(['extends', 'topics']);
    for (const i of artifact.inputs) {
      expect(path.isAbsolute(i.file)).toBe(false);
      expect(i.sha256).toBe(sha256(await readFile(path.resolve(path.dirname(out), i.file))));
    }
    const second = await runCli([
      'pairs',
      M('geopolitics.zh-Hant.topics.yaml'),
      '--langs',
      'zh,zh-Hant',
      '--out',
      out,
      '--json',
    ]);
    expect(second.json().written).toBe(false);
    expect(await readFile(out, 'utf8')).toBe(text);
    expect((await readdir(path.dirname(out))).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('--out naming an existing folder, or a path under a file, is E_PAIRS_OUT / E_OUT_NOT_A_FOLDER (exit 1), not a crash', async () => {
    const dir = await tempDir('stimkit-pairs-');
    const r = await runCli(['pairs', M('geopolitics.topics.yaml'), '--out', dir, '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_PAIRS_OUT');
    expect(r.stderr).toContain(`${dir}: --out names a folder`);
    expect(r.stderr).not.toMatch(/EISDIR|internal error|^\s+at /m);
    expect(await readdir(dir)).toEqual([]);
    await writeFile(path.join(dir, 'afile'), 'x');
    const under = await runCli([
      'pairs',
      M('geopolitics.topics.yaml'),
      '--out',
      path.join(dir, 'afile', 'pairs.json'),
      '--json',
    ]);
    expect(under.code).toBe(1);
    expect(under.json().error.code).toBe('E_OUT_NOT_A_FOLDER');
  });

  it('the built binary prints the 28 items with --json', () => {
    const json = spawnCli(['pairs', 'manifests/geopolitics.topics.yaml', '--json']);
    expect(json.code).toBe(0);
    expect(json.json().items).toHaveLength(28);
  });

  // In this process: what is checked is where the text goes (stderr, not stdout) and the exit
  // code, which main() decides as it does in the binary above.
  it('prints a table without --json, and exits 1 on a missing file', async () => {
    const human = await runCli(['pairs', M('science-consensus.topics.yaml')]);
    expect(human.code).toBe(0);
    expect(human.stdout).toBe('');
    expect(human.stderr).toContain(
      'science-consensus: 2 topics × 1 language(s) (en) × 2 framings = 4 items',
    );
    expect(human.stderr).toContain(
      'climate-attribution.en.affirmative  +1  Recent global warming is driven more by human activity than by natural variability.',
    );
    const missing = await runCli(['pairs', M('nope.topics.yaml')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('file not found');
  });
});
