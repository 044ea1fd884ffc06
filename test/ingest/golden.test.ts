// The demo corpus lock is golden: a fresh ingest in a copy of the repository layout, told to write
// into the images folder (--out corpora/demo, as the committed lock was made), must write exactly
// the committed corpora/demo/corpus.lock.json, and a rerun must leave it byte-identical. Without
// --out the lock goes next to the manifest, never into the images folder.
import { chmod, cp, mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, spawnCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const IMAGES = [
  'astronaut.png',
  'camera.png',
  'chelsea.png',
  'coffee.png',
  'horse.png',
  'rocket.jpg',
];

async function copyDemoLayout(): Promise<string> {
  const dir = await tempDir('stimkit-golden-');
  await mkdir(path.join(dir, 'manifests'), { recursive: true });
  await mkdir(path.join(dir, 'corpora', 'demo'), { recursive: true });
  await cp(
    path.join(ROOT, 'manifests', 'demo.entries.yaml'),
    path.join(dir, 'manifests', 'demo.entries.yaml'),
  );
  for (const f of IMAGES)
    await cp(path.join(ROOT, 'corpora', 'demo', f), path.join(dir, 'corpora', 'demo', f));
  return dir;
}

describe('demo corpus lock (golden)', () => {
  it('ingest reproduces the committed lock byte for byte, and a rerun leaves it untouched', async () => {
    const dir = await copyDemoLayout();
    const manifest = path.join(dir, 'manifests', 'demo.entries.yaml');
    const lockFile = path.join(dir, 'corpora', 'demo', 'corpus.lock.json');
    const first = await runCli([
      'ingest',
      manifest,
      '--out',
      path.join(dir, 'corpora', 'demo'),
      '--json',
    ]);
    expect(first.code).toBe(0);
    expect(first.json()).toMatchObject({
      ok: true,
      entries: 6,
      images: { ok: 6, missing: 0, failed: 0 },
      lock_written: true,
    });
    const golden = await readFile(path.join(ROOT, 'corpora', 'demo', 'corpus.lock.json'), 'utf8');
    const written = await readFile(lockFile, 'utf8');
    expect(written).toBe(golden);
    const mtime = (await stat(lockFile)).mtimeMs;
    const second = await runCli([
      'ingest',
      manifest,
      '--out',
      path.join(dir, 'corpora', 'demo'),
      '--json',
    ]);
    expect(second.json()).toMatchObject({
      lock_written: false,
      lock_sha256: first.json().lock_sha256,
    });
    expect((await stat(lockFile)).mtimeMs).toBe(mtime);
  });

  it('writes next to the manifest by default, leaving a read-only images folder alone', async () => {
    const dir = await copyDemoLayout();
    await chmod(path.join(dir, 'corpora', 'demo'), 0o555);
    try {
      const run = await runCli([
        'ingest',
        path.join(dir, 'manifests', 'demo.entries.yaml'),
        '--json',
      ]);
      expect(run.code).toBe(0);
      const lock = JSON.parse(
        await readFile(path.join(dir, 'manifests', 'demo.corpus.lock.json'), 'utf8'),
      );
      expect(lock.manifest.file).toBe('demo.entries.yaml');
      expect(lock.images_root).toBe('../corpora/demo');
      expect(lock.entries[0].image.resolved.file).toBe('../corpora/demo/rocket.jpg');
      await expect(stat(path.join(dir, 'corpora', 'demo', 'corpus.lock.json'))).rejects.toThrow();
    } finally {
      await chmod(path.join(dir, 'corpora', 'demo'), 0o755);
    }
  });

  it('records what the paper design needs of each demo entry', async () => {
    const lock = JSON.parse(
      await readFile(path.join(ROOT, 'corpora', 'demo', 'corpus.lock.json'), 'utf8'),
    );
    expect(lock).toMatchObject({
      format: 'stimkit.corpus',
      version: 1,
      corpus: 'demo',
      languages: ['en', 'zh'],
    });
    expect(lock.manifest.file).toBe('../../manifests/demo.entries.yaml');
    const byId = Object.fromEntries(lock.entries.map((e: { id: string }) => [e.id, e]));
    expect(byId['dscovr-launch'].image.resolved.icc.description).toBe('Adobe RGB (1998)');
    expect(byId['chelsea-cat'].roles).toContain('control');
    expect(byId['eileen-collins-portrait'].anchor.name.zh).toBeTruthy();
    expect(JSON.stringify(lock)).not.toContain(ROOT);
  });

  it('works through the real binary from another working directory', async () => {
    const dir = await copyDemoLayout();
    const run = spawnCli(
      ['ingest', 'manifests/demo.entries.yaml', '--json', '--out', 'locks'],
      dir,
    );
    expect(run.code).toBe(0);
    expect(run.json().lock).toBe('locks/corpus.lock.json');
    expect(run.stderr).toContain('corpus "demo": 6 entries');
    const lock = JSON.parse(await readFile(path.join(dir, 'locks', 'corpus.lock.json'), 'utf8'));
    expect(lock.images_root).toBe('../corpora/demo');
    expect(lock.entries[0].image.resolved.file).toBe('../corpora/demo/rocket.jpg');
  });
});
