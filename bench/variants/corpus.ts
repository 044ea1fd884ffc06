/**
 * Peak memory of a whole run over a larger corpus (`npm run bench -- variants --corpus 200`): N
 * images made from the demo photos (each with one pixel changed, so their digests differ),
 * ingested, then `stimkit variants --only A0,…,A5` (or all seven, A6 included) at the default
 * --jobs in a child process whose peak RSS /usr/bin/time reports (worker threads included: they
 * share the process). The same images, ingested, are the photos of the side-by-side comparison
 * with `--side-photos N` (`sideCorpus`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { stringify } from 'yaml';
import { ingest } from '../../src/ingest/ingest.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Make the corpus under `dir/corpusN` (once), run the variants (A0–A5, or A0–A6 with `withA6`), return time and peak RSS. */
export async function corpusPeak(
  dir: string,
  photos: string[],
  n: number,
  withA6 = false,
): Promise<{ seconds: number; rssMiB: number; jobs: number }> {
  const home = path.join(dir, `corpus${n}`);
  if (!existsSync(path.join(home, 'bench.entries.yaml'))) await makeCorpus(home, photos, n);
  const bin = path.join(ROOT, 'bin', 'stimkit.js');
  const only = withA6 ? [] : ['--only', 'A0,A1,A2,A3,A4,A5'];
  const cmd = [
    process.execPath,
    bin,
    'variants',
    path.join(home, 'bench.entries.yaml'),
    ...only,
    '--out',
    path.join(home, withA6 ? 'out-a6' : 'out'),
  ];
  const argv = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-f', 'TIME %e %M', ...cmd] : cmd;
  const t = performance.now();
  const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`corpus run exited ${r.status}:\n${r.stderr.slice(-2000)}`);
  const line = r.stderr.split('\n').find((l) => l.startsWith('TIME '));
  return {
    seconds,
    rssMiB: line ? Number(line.split(' ')[2]) / 1024 : NaN,
    jobs: os.availableParallelism(),
  };
}

async function makeCorpus(home: string, photos: string[], n: number): Promise<void> {
  mkdirSync(home, { recursive: true });
  const entries = [];
  for (let i = 0; i < n; i++) {
    const file = `img-${String(i).padStart(4, '0')}.png`;
    const pixel = await sharp({
      create: {
        width: 1,
        height: 1,
        channels: 3,
        background: { r: i % 256, g: (i >> 8) % 256, b: 7 },
      },
    })
      .png()
      .toBuffer();
    await sharp(photos[i % photos.length])
      .composite([{ input: pixel, left: 0, top: 0 }])
      .png({ compressionLevel: 1 })
      .toFile(path.join(home, file));
    entries.push({
      id: `img-${i}`,
      title: { en: file },
      topic: 'bench',
      sensitivity: 'low',
      roles: ['abstraction'],
      image: { file },
      provenance: { credit: 'bench', license: 'CC0-1.0' },
    });
  }
  writeFileSync(
    path.join(home, 'bench.entries.yaml'),
    stringify({
      format: 'stimkit.entries',
      version: 1,
      corpus: 'bench',
      languages: ['en'],
      entries,
    }),
  );
}

/**
 * N images made from the demo photos as for `--corpus N`, ingested (their corpus lock in the
 * returned folder): the photos of the side-by-side comparison with `--side-photos N`.
 */
export async function sideCorpus(
  dir: string,
  photos: string[],
  n: number,
): Promise<{ dir: string; files: string[] }> {
  const home = path.join(dir, `side${n}`);
  await makeCorpus(home, photos, n);
  const ingested = await ingest(path.join(home, 'bench.entries.yaml'), {
    out: home,
    strict: false,
  });
  if (!ingested.lockFile) throw new Error(`ingest of the ${n} side-by-side images failed`);
  const files = Array.from({ length: n }, (_, i) =>
    path.join(home, `img-${String(i).padStart(4, '0')}.png`),
  );
  return { dir: home, files };
}
