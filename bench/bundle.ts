/**
 * `npm run bench -- bundle [--repeat N] [--files N] [--mb N]`
 *
 * 1. Bundling the paper-shaped study (manifests/paper.study.yaml, 5,852 trials per model)
 *    without image work: ingest and variants run once to warm a work folder, then every timed
 *    bundle reuses both locks (the reuse check still hashes the images). Reports trials per
 *    second for the plan alone (dry run) and for the full bundle (plan + payload + sealed bag).
 * 2. Sealing throughput against `sha256sum` on the same files: the payload of a bag with
 *    `--files` images of `--mb` MB each (incompressible, like PNG), hashed from a warm page cache
 *    by stimkit's sealing hash (the one `verify` and the bag writer use) and by `sha256sum`.
 *    Target: stimkit ≥ 0.8 × sha256sum. Also `openssl dgst -sha256` as a second reference, and the
 *    full bag write (read, hash, write, fsync).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bundleStudy } from '../src/bundle/bundle.js';
import { formatManifest } from '../src/bundle/bagit.js';
import { writeBag } from '../src/bundle/write-bag.js';
import { hashFiles, listFiles } from '../src/core/walk.js';
import { verifyBundle } from '../src/verify/verify.js';
import { PACKAGE_ROOT } from '../src/core/tool.js';

const args = process.argv.slice(3);
const flag = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const repeat = flag('repeat', 5);
const files = flag('files', 200);
const mb = flag('mb', 2);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
async function time(fn: () => Promise<unknown>, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}
const print = (s: string) => process.stdout.write(`${s}\n`);

const root = await mkdtemp(path.join(os.tmpdir(), 'stimkit-bench-bundle-'));
try {
  const study = path.join(PACKAGE_ROOT, 'manifests', 'paper.study.yaml');
  const work = path.join(root, 'work');
  print(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, node ${process.version}`);
  const warm = performance.now();
  const first = await bundleStudy(study, { out: path.join(root, 'warm'), work });
  print(
    `warm-up (ingest + variants of 214 synthetic entries, then bundle): ${((performance.now() - warm) / 1000).toFixed(1)} s`,
  );

  const dry = await time(() => bundleStudy(study, { dryRun: true }), repeat);
  const full = await time(() => bundleStudy(study, { out: path.join(root, 'bag'), work }), repeat);
  const verify = await time(() => verifyBundle(path.join(root, 'bag')), repeat);
  const again = await bundleStudy(study, { out: path.join(root, 'bag'), work });
  print(
    `\n1. paper-shaped study, ${first.trials} trials, ${first.images} images, ${(first.payload!.octets / 1e6).toFixed(1)} MB payload (median of ${repeat})`,
  );
  print(
    `   plan only (dry run):   ${median(dry).toFixed(0)} ms  → ${Math.round(first.trials / (median(dry) / 1000))} trials/s`,
  );
  print(
    `   full bundle (reused):  ${median(full).toFixed(0)} ms  → ${Math.round(first.trials / (median(full) / 1000))} trials/s`,
  );
  print(`   verify:                ${median(verify).toFixed(0)} ms`);
  print(
    `   digest stable across ${repeat + 2} bundles: ${again.digest === first.digest ? 'yes' : 'NO'} (${first.digest})`,
  );

  // 2. Sealing throughput.
  const src = path.join(root, 'src');
  const payload = Array.from({ length: files }, (_, i) => ({
    path: `images/${String(i).padStart(4, '0')}.png`,
    bytes: randomBytes(mb * 1_000_000),
  }));
  await writeBag(src, payload, [['Bag-Software-Agent', 'bench']]);
  const dataFiles = (await listFiles(src)).filter((f) => f.path.startsWith('data/'));
  const total = dataFiles.reduce((s, f) => s + f.size, 0);
  const abs = dataFiles.map((f) => path.join(src, f.path));
  execFileSync('sha256sum', abs, { maxBuffer: 1 << 26 }); // warm the page cache
  const sum = await time(
    () => Promise.resolve(execFileSync('sha256sum', abs, { maxBuffer: 1 << 26 })),
    repeat,
  );
  let openssl: number[] | null = null;
  try {
    openssl = await time(
      () =>
        Promise.resolve(
          execFileSync('openssl', ['dgst', '-sha256', ...abs], { maxBuffer: 1 << 26 }),
        ),
      repeat,
    );
  } catch {
    // openssl is only a second reference
  }
  const seal = (concurrency: number) => async () => {
    const d = await hashFiles(src, dataFiles, 'sha256', concurrency);
    return formatManifest([...d.entries()].map(([p, digest]) => ({ path: p, digest: digest! })));
  };
  const ours1 = await time(seal(1), repeat);
  const ours = await time(seal(4), repeat);
  const rate = (ms: number) => total / 1e6 / (ms / 1000);
  // A fresh folder each time: writeBag replaces only bags stimkit's bundle wrote (with bundle.json).
  let copies = 0;
  let out = '';
  const copy = await time(
    () => {
      out = path.join(root, `copy-${copies++}`);
      return writeBag(
        out,
        dataFiles.map((f) => ({
          path: f.path.slice('data/'.length),
          source: path.join(src, f.path),
        })),
        [['Bag-Software-Agent', 'bench']],
      );
    },
    Math.min(repeat, 3),
  );
  print(
    `\n2. sealing ${files} files × ${mb} MB = ${(total / 1e6).toFixed(0)} MB, warm cache (median of ${repeat})`,
  );
  print(`   sha256sum:                    ${rate(median(sum)).toFixed(0)} MB/s`);
  if (openssl)
    print(
      `   openssl dgst -sha256:          ${rate(median(openssl)).toFixed(0)} MB/s  (a second reference; uses the CPU's SHA instructions)`,
    );
  print(
    `   stimkit seal, 1 file at once: ${rate(median(ours1)).toFixed(0)} MB/s  (${(median(sum) / median(ours1)).toFixed(2)} × sha256sum)`,
  );
  print(
    `   stimkit seal, 4 files at once: ${rate(median(ours)).toFixed(0)} MB/s  (${(median(sum) / median(ours)).toFixed(2)} × sha256sum; target ≥ 0.80)`,
  );
  print(`   full bag write (read + hash + write + fsync): ${rate(median(copy)).toFixed(0)} MB/s`);
  print(`   files in the written bag: ${(await readdir(path.join(out, 'data', 'images'))).length}`);
} finally {
  await rm(root, { recursive: true, force: true });
}
