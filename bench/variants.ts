/**
 * `npm run bench -- variants [--repeat N] [--no-a6] [--side N] [--side-jobs N] [--side-photos N]
 * [--side-only]`
 *
 * The abstraction ladder on the demo photos (corpora/demo) brought to 1024 px on the long side
 * (Lanczos-3 enlargement, so every variant works at the A0 maximum). Each phase runs in a fresh
 * child process so that its peak RSS is its own:
 * - floor: a plain sharp decode + PNG encode of the same files;
 * - A0–A5: per variant the median ms per image of computing it and encoding its PNG, and
 *   separately of its metrics, on one thread, each step awaited (their sum per image is the
 *   issue's figure); then one entry as the tool runs it at --jobs 1 (entry.ts: sharp encodes the
 *   PNGs on its own threads meanwhile), wall and CPU per image;
 * - a whole run (`runVariants` from dist/ on the corpus lock, default --jobs, worker threads);
 * - A6: segmenter load, then per image segmentation + post-processing + PNG; a whole run with A6.
 * - side by side: the whole `stimkit variants` process for A0–A5 (`--no-contact-sheet`, default
 *   --jobs unless `--side-jobs N`, default metrics and `--metrics basic`) against bench/variants_opencv.py (OpenCV + numpy doing
 *   the same six variants and PNGs), alternating, `--side N` times (default 3): medians and ratio
 *   (`--side-only`: this comparison alone); on the six photos, or with `--side-photos N` on N
 *   images made from them as for `--corpus N` (the start-up of both processes then weighs less);
 * - `--corpus N`: peak RSS of a whole A0–A5 run (default --jobs) over N generated images, and of
 *   an A0–A6 run unless `--no-a6`.
 * Run `npm run build` first so that the whole runs use the compiled worker threads.
 * Targets are printed next to the figures; they are not asserted anywhere.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { stringify } from 'yaml';
import { luma } from '../src/variants/ops/grayscale.js';
import { metricsBase, variantMetrics } from '../src/variants/metrics/metrics.js';
import { decodeA0 } from '../src/variants/ops/original.js';
import { encodePng } from '../src/variants/ops/png.js';
import { defaultRecipe } from '../src/variants/recipe.js';
import { VARIANTS } from '../src/variants/ops/registry.js';
import { ingest } from '../src/ingest/ingest.js';
import { createSegmenter } from '../src/variants/segment/index.js';
import { processEntry } from '../src/variants/entry.js';
import { libraryVersions } from '../src/variants/libraries.js';
import { sha256 } from '../src/core/fsio.js';
import { shareSegmenter } from '../src/variants/segment/segmenter.js';
import type { EntryContext } from '../src/variants/types.js';
import { sideReport } from './variants/side-by-side.js';
import { corpusPeak, sideCorpus } from './variants/corpus.js';

const SELF = fileURLToPath(import.meta.url);
const DEMO = fileURLToPath(new URL('../corpora/demo/', import.meta.url));
const PHOTOS = [
  'astronaut.png',
  'camera.png',
  'chelsea.png',
  'coffee.png',
  'horse.png',
  'rocket.jpg',
];
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const value = (name: string, fallback: string) =>
  args.includes(name) ? args[args.indexOf(name) + 1]! : fallback;
const REPEAT = Number(value('--repeat', '3'));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const rssMiB = () => process.resourceUsage().maxRSS / 1024;

async function timed<T>(fn: () => Promise<T> | T): Promise<[T, number]> {
  const t = performance.now();
  const r = await fn();
  return [r, performance.now() - t];
}

/** Prepare the 1024-px photos and a manifest for whole runs. */
async function prepare(dir: string): Promise<string[]> {
  const files: string[] = [];
  const entries = [];
  for (const p of PHOTOS) {
    const out = path.join(dir, p);
    const pipe = sharp(path.join(DEMO, p)).resize(1024, 1024, {
      fit: 'inside',
      kernel: 'lanczos3',
    });
    await (p.endsWith('.jpg') ? pipe.keepIccProfile().jpeg({ quality: 95 }) : pipe.png()).toFile(
      out,
    );
    files.push(out);
    entries.push({
      id: p.replace(/\.\w+$/, ''),
      title: { en: p },
      topic: 'bench',
      sensitivity: 'low',
      roles: ['abstraction'],
      image: { file: p },
      provenance: { credit: 'corpora/demo/SOURCES.md', license: 'see corpora/demo/SOURCES.md' },
    });
  }
  const manifest = path.join(dir, 'bench.entries.yaml');
  writeFileSync(
    manifest,
    stringify({
      format: 'stimkit.entries',
      version: 1,
      corpus: 'bench',
      languages: ['en'],
      entries,
    }),
  );
  const ingested = await ingest(manifest, { out: dir, strict: false });
  if (!ingested.lockFile) throw new Error('ingest of the bench photos failed');
  return files;
}

type Phase = 'floor' | 'a0a5' | 'a6' | 'run' | 'run-a6';

async function childFloor(files: string[]) {
  const per: number[] = [];
  for (const f of files) {
    const ms: number[] = [];
    for (let r = 0; r <= REPEAT; r++) ms.push((await timed(() => sharp(f).png().toBuffer()))[1]);
    per.push(median(ms.slice(1)));
  }
  return { floor: median(per), rss: rssMiB() };
}

async function childA0A5(files: string[]) {
  const recipe = defaultRecipe();
  const variant: Record<string, number[]> = {};
  const metric: Record<string, number[]> = {};
  const cpu: number[] = [];
  for (const f of files) {
    const bytes = readFileSync(f);
    const v: Record<string, number[]> = {};
    const m: Record<string, number[]> = {};
    let c0 = process.cpuUsage();
    for (let r = 0; r <= REPEAT; r++) {
      if (r === 1) c0 = process.cpuUsage();
      const [{ image: a0, facts }, decodeMs] = await timed(() => decodeA0(bytes, recipe.original));
      const [a2, lumaMs] = await timed(() => luma(a0));
      const [base, baseMs] = await timed(() => metricsBase(a2, recipe));
      const ctx: EntryContext = { recipe, a0, a2, a0Params: { ...facts } };
      for (const def of VARIANTS.slice(0, 6)) {
        const [res, runMs] = await timed(() => def.run(ctx));
        const [, pngMs] = await timed(() => encodePng(res.image, recipe.output.png_compression));
        const [, metricsMs] = await timed(() =>
          variantMetrics(def.code, res.image, res.params, base, recipe),
        );
        const extra = def.code === 'A0' ? decodeMs : def.code === 'A2' ? lumaMs : 0;
        if (r > 0) {
          (v[def.code] ??= []).push(runMs + pngMs + extra);
          (m[def.code] ??= []).push(metricsMs + (def.code === 'A2' ? baseMs : 0));
        }
      }
    }
    const used = process.cpuUsage(c0);
    cpu.push((used.user + used.system) / 1000 / REPEAT);
    for (const k of Object.keys(v)) {
      (variant[k] ??= []).push(median(v[k]!));
      (metric[k] ??= []).push(median(m[k]!));
    }
  }
  // The same work as the tool does it for one entry at --jobs 1 (entry.ts: sharp encodes each PNG
  // on its own thread while the next variants and the metrics are computed), timed per entry.
  const codes = VARIANTS.slice(0, 6).map((d) => d.code);
  const plan = {
    outDir: mkdtempSync(path.join(os.tmpdir(), 'stimkit-bench-entry-')),
    recipe,
    libraries: libraryVersions(),
    codes,
    pixelLimit: false as const,
  };
  const entryWall: number[] = [];
  const entryCpu: number[] = [];
  try {
    for (const f of files) {
      const job = {
        id: path.basename(f).replace(/\.\w+$/, ''),
        roles: ['abstraction' as const],
        imagePath: f,
        imageRef: f,
        sha256: sha256(readFileSync(f)),
        codes,
        hashes: codes.map(() => ''),
        reuse: codes.map(() => null),
      };
      const wall: number[] = [];
      const cpuMs: number[] = [];
      for (let r = 0; r <= REPEAT; r++) {
        const c = process.cpuUsage();
        const [outcome, ms] = await timed(() => processEntry(job, plan));
        const used = process.cpuUsage(c);
        if (outcome.record.status !== 'ok') throw new Error(`entry ${job.id} failed`);
        if (r > 0) {
          wall.push(ms);
          cpuMs.push((used.user + used.system) / 1000);
        }
      }
      entryWall.push(median(wall));
      entryCpu.push(median(cpuMs));
    }
  } finally {
    rmSync(plan.outDir, { recursive: true, force: true });
  }
  return {
    variant: Object.fromEntries(Object.entries(variant).map(([k, xs]) => [k, median(xs)])),
    metric: Object.fromEntries(Object.entries(metric).map(([k, xs]) => [k, median(xs)])),
    cpu: median(cpu),
    entry: { wall: median(entryWall), wallMin: Math.min(...entryWall), cpu: median(entryCpu) },
    rss: rssMiB(),
  };
}

async function childA6(files: string[]) {
  const recipe = defaultRecipe();
  const [seg, loadMs] = await timed(() =>
    createSegmenter(recipe.silhouette.method, recipe.silhouette[recipe.silhouette.method]),
  );
  const shared = shareSegmenter(seg);
  const per: number[] = [];
  try {
    const a6 = VARIANTS[6]!;
    for (const f of files) {
      const { image: a0, facts } = await decodeA0(readFileSync(f), recipe.original);
      const ctx: EntryContext = {
        recipe,
        a0,
        a2: luma(a0),
        a0Params: { ...facts },
        segmenter: shared,
      };
      const ms: number[] = [];
      for (let r = 0; r < Math.max(1, REPEAT - 1); r++) {
        const [res, t] = await timed(() => a6.run(ctx));
        ms.push(t + (await timed(() => encodePng(res.image, recipe.output.png_compression)))[1]);
      }
      per.push(median(ms));
    }
  } finally {
    await seg.dispose();
  }
  return { load: loadMs, a6: median(per), rss: rssMiB() };
}

/**
 * A whole run as a user makes it: `runVariants` from the build (dist/, so worker threads start
 * from compiled JavaScript) when present, on the corpus lock, default --jobs.
 */
async function childRun(files: string[], dir: string, withA6: boolean) {
  const dist = fileURLToPath(new URL('../dist/variants/run.js', import.meta.url));
  const mod = (
    existsSync(dist) ? await import(dist) : await import('../src/variants/run.js')
  ) as typeof import('../src/variants/run.js');
  const only = withA6 ? undefined : ['A0', 'A1', 'A2', 'A3', 'A4', 'A5'];
  const [r, ms] = await timed(() =>
    mod.runVariants(path.join(dir, 'corpus.lock.json'), {
      out: path.join(dir, withA6 ? 'run-all' : 'run-a0a5'),
      only,
    }),
  );
  if (r.failed > 0) throw new Error(`whole run: ${r.failed} entries failed`);
  return { perImage: ms / files.length, rss: rssMiB(), built: existsSync(dist) };
}

function child(phase: Phase, dir: string): any {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', SELF, '--child', phase, '--dir', dir, '--repeat', String(REPEAT)],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    },
  );
  if (r.status !== 0) throw new Error(`phase ${phase} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

const childPhase = value('--child', '') as Phase | '';
if (childPhase) {
  const dir = value('--dir', '');
  const files = PHOTOS.map((p) => path.join(dir, p));
  const result =
    childPhase === 'floor'
      ? await childFloor(files)
      : childPhase === 'a0a5'
        ? await childA0A5(files)
        : childPhase === 'a6'
          ? await childA6(files)
          : await childRun(files, dir, childPhase === 'run-a6');
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'stimkit-bench-variants-'));
  try {
    const files = await prepare(dir);
    const sizes = await Promise.all(
      files.map(async (f) => (await sharp(f).metadata()) as { width: number; height: number }),
    );
    const f = (x: number) => x.toFixed(0).padStart(6);
    const out: string[] = [];
    out.push(
      `stimkit variants benchmark: ${files.length} demo photos at 1024 px (${sizes.map((s) => `${s.width}x${s.height}`).join(', ')})`,
    );
    out.push(
      `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}, repeat ${REPEAT}`,
    );
    if (!flag('--side-only')) {
      const floor = child('floor', dir);
      out.push(
        `floor: sharp decode + PNG encode ${f(floor.floor)} ms per image, peak RSS ${f(floor.rss)} MiB`,
      );
      const a = child('a0a5', dir);
      out.push('', 'variant   make+PNG ms   metrics ms   target (make+PNG)');
      for (const code of ['A0', 'A1', 'A2', 'A3', 'A4', 'A5']) {
        out.push(`${code}        ${f(a.variant[code])}       ${f(a.metric[code])}      ≤ 200 ms`);
      }
      const sum = (o: Record<string, number>) => Object.values(o).reduce((x, y) => x + y, 0);
      const perImage = sum(a.variant) + sum(a.metric);
      out.push(
        `A0–A5: ${f(sum(a.variant))} ms to make + ${f(sum(a.metric))} ms of metrics = ${f(perImage)} ms per image (median over images), one thread   (target ≤ 250 ms)`,
      );
      out.push(
        `       ${f(a.cpu)} ms of CPU per image (process user + system; sharp encodes on its own threads); peak RSS ${f(a.rss)} MiB`,
      );
      out.push(
        `one entry as the tool runs it (--jobs 1: each PNG encoded by sharp while the next variants are made): ${f(a.entry.wall)} ms per image (median over images; fastest image ${f(a.entry.wallMin)} ms), ${f(a.entry.cpu)} ms of CPU   (target ≤ 250 ms)`,
      );
    }
    const sidePhotos = flag('--side-photos') ? Number(value('--side-photos', '')) : null;
    if (sidePhotos !== null && !(Number.isInteger(sidePhotos) && sidePhotos > 0))
      throw new Error(`--side-photos wants a positive whole number, got ${sidePhotos}`);
    const side = sidePhotos === null ? { dir, files } : await sideCorpus(dir, files, sidePhotos);
    if (sidePhotos !== null)
      out.push(
        '',
        `side by side on ${sidePhotos} images made from the ${files.length} photos (in turn, one pixel changed in each, PNG)`,
      );
    out.push(
      ...sideReport(
        side.dir,
        side.files,
        Number(value('--side', '3')),
        flag('--side-jobs') ? Number(value('--side-jobs', '')) : null,
      ),
    );
    if (!flag('--side-only')) {
      const corpusN = Number(value('--corpus', '0'));
      if (corpusN > 0) {
        const c = await corpusPeak(dir, files, corpusN);
        out.push(
          '',
          `corpus of ${corpusN} images, whole A0–A5 run at default --jobs (${c.jobs}): ${c.seconds.toFixed(1)} s, peak RSS ${f(c.rssMiB)} MiB   (target ≤ 1024 MiB)`,
        );
        if (!flag('--no-a6')) {
          const c6 = await corpusPeak(dir, files, corpusN, true);
          out.push(
            `corpus of ${corpusN} images, whole A0–A6 run at default --jobs (${c6.jobs}): ${c6.seconds.toFixed(1)} s, peak RSS ${f(c6.rssMiB)} MiB   (target ≤ 1536 MiB)`,
          );
        }
      }
      const run = child('run', dir);
      const jobs = os.availableParallelism();
      out.push(
        `whole run A0–A5 (--jobs ${jobs}${run.built ? '' : ', from sources'}): ${f(run.perImage)} ms per image, peak RSS ${f(run.rss)} MiB   (target ≤ 1024 MiB)`,
      );
      if (!flag('--no-a6')) {
        const s = child('a6', dir);
        out.push(
          '',
          `A6 (${defaultRecipe().silhouette.method}): model load ${f(s.load)} ms, ${f(s.a6)} ms per image, peak RSS ${f(s.rss)} MiB   (target ≤ 4000 ms)`,
        );
        const all = child('run-a6', dir);
        out.push(
          `whole run A0–A6 (--jobs ${jobs}): ${f(all.perImage)} ms per image, peak RSS ${f(all.rss)} MiB   (target ≤ 1536 MiB)`,
        );
      }
    }
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
