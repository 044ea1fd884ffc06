// A JPEG damaged in the middle of its data (a bad transfer) decodes through libvips without an
// error, its lower part garbage: ingest walks every scan as libjpeg does and refuses it. The
// reference is libjpeg-turbo's own decoder, `djpeg` (scripts/test-deps.sh installs it): over
// files cjpeg writes (baseline, progressive, restart intervals, greyscale, 4:4:4, 4:2:2, optimised
// tables) damaged at random, whatever djpeg calls corrupt the check (or sharp's decode) refuses,
// but for a scan followed by a few stray bytes (at most 8: a common encoder quirk, let pass);
// no intact file is refused.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { jpegScanProblem } from '../../src/ingest/jpeg-scan.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { corpusWith, DEMO_DIR, entry, writeManifest } from './fixtures.js';

const TOOLS = existsSync('/usr/bin/djpeg') && existsSync('/usr/bin/cjpeg');
if (!TOOLS)
  // Said loudly: the reference is missing, and the differential test below fails.
  console.error(
    'test/ingest/jpeg-scan.test.ts: /usr/bin/djpeg and /usr/bin/cjpeg are missing: run bash scripts/test-deps.sh (libjpeg-turbo-progs)',
  );

let dir: string;
beforeAll(async () => {
  dir = await tempDir('stimkit-jpeg-scan-');
});

/** A deterministic generator (the same damage on every run). */
function lcg(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s % n;
  };
}

/** `b` with `len` bytes from `at` damaged: XOR-ed, zeroed, or one bit flipped each. */
function damage(b: Buffer, at: number, len: number, kind: number, rand: (n: number) => number) {
  const out = Buffer.from(b);
  for (let j = at; j < Math.min(out.length - 2, at + len); j++)
    out[j] = kind === 0 ? out[j]! ^ (1 + rand(255)) : kind === 1 ? 0 : out[j]! ^ (1 << rand(8));
  return out;
}

describe('the JPEG data check', () => {
  it('passes intact JPEGs: sharp’s encoders at many sizes and settings, and the demo photo', async () => {
    const settings = [
      {},
      { progressive: true },
      { mozjpeg: true },
      { chromaSubsampling: '4:4:4' },
      { trellisQuantisation: true, optimiseScans: true, progressive: true },
      { quality: 100 },
      { quality: 5 },
    ];
    for (const o of settings)
      for (const size of [1, 7, 17, 333]) {
        const img = sharp(path.join(DEMO_DIR, 'chelsea.png')).resize(size, Math.ceil(size * 0.7));
        expect(jpegScanProblem(await img.clone().jpeg(o).toBuffer()), JSON.stringify(o)).toBe(null);
        expect(jpegScanProblem(await img.greyscale().jpeg(o).toBuffer())).toBe(null);
      }
    expect(jpegScanProblem(await readFile(path.join(DEMO_DIR, 'rocket.jpg')))).toBe(null);
  });

  it('agrees with libjpeg’s djpeg on damaged files cjpeg wrote', async () => {
    expect(TOOLS, 'djpeg and cjpeg (libjpeg-turbo-progs): run bash scripts/test-deps.sh').toBe(
      true,
    );
    const { data, info } = await sharp(path.join(DEMO_DIR, 'chelsea.png'))
      .resize(301, 203)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const ppm = path.join(dir, 'src.ppm');
    await writeFile(
      ppm,
      Buffer.concat([Buffer.from(`P6\n${info.width} ${info.height}\n255\n`), data]),
    );
    const encodings = [
      [],
      ['-progressive'],
      ['-restart', '2'],
      ['-progressive', '-restart', '3B'],
      ['-grayscale'],
      ['-sample', '1x1'],
      ['-sample', '2x1'],
      ['-optimize'],
    ];
    const rand = lcg(12345);
    // Every damaged file is written first and djpeg runs over all of them in one shell: a spawn
    // per file from the test worker (a large process) cost a tenth of a second each.
    const cases: Array<{ name: string; bad: Buffer; at: number; opts: string[] }> = [];
    for (const [e, opts] of encodings.entries()) {
      const good = execFileSync('/usr/bin/cjpeg', [...opts, ppm]);
      expect(jpegScanProblem(good), opts.join(' ')).toBe(null);
      const start = good.indexOf(Buffer.from([0xff, 0xda])) + 20;
      for (let i = 0; i < 60; i++) {
        const kind = rand(3);
        const at = start + rand(good.length - 2 - start);
        const bad = damage(good, at, 1 + rand(kind === 2 ? 4 : 200), kind, rand);
        const name = `damaged-${e}-${i}.jpg`;
        await writeFile(path.join(dir, name), bad);
        cases.push({ name, bad, at, opts });
      }
    }
    const script =
      'for f in "$@"; do /usr/bin/djpeg -outfile /dev/null "$f" 2>&1; echo "@@$?"; done';
    const all = spawnSync('/bin/sh', ['-c', script, 'sh', ...cases.map((c) => c.name)], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    const verdicts = all.stdout.split(/@@(\d+)\n/);
    const missed: string[] = [];
    let refused = 0;
    for (const [i, c] of cases.entries()) {
      const stderr = verdicts[2 * i]!.trim();
      const corrupt = verdicts[2 * i + 1] !== '0' || stderr !== '';
      const ours =
        jpegScanProblem(c.bad) !== null ||
        (await sharp(c.bad, { failOn: 'warning' })
          .raw()
          .toBuffer()
          .then(
            () => false,
            () => true,
          ));
      if (ours) refused++;
      // a few stray bytes after a scan are let pass (at most 8)
      const stray = /(\d+) extraneous bytes/.exec(stderr);
      if (corrupt && !ours && !(stray && Number(stray[1]) <= 8))
        missed.push(`${c.opts.join(' ')} at ${c.at}: ${stderr}`);
    }
    expect(cases).toHaveLength(480);
    expect(missed).toEqual([]);
    expect(refused).toBeGreaterThan(200);
  });

  it('ingest refuses a JPEG whose middle was damaged in transfer, naming the entry', async () => {
    const corpus = await corpusWith('coffee.png');
    const clean = await sharp(path.join(DEMO_DIR, 'chelsea.png'))
      .resize(300, 200)
      .jpeg()
      .toBuffer();
    // 400 bytes in its middle XOR-ed with noise, as a bad copy does
    const bad = damage(clean, clean.length >> 1, 400, 0, lcg(1));
    // libvips decodes it without an error; libjpeg says it is corrupt
    await expect(sharp(bad, { failOn: 'warning' }).raw().toBuffer()).resolves.toBeTruthy();
    expect(jpegScanProblem(bad)).toMatch(/./);
    await writeFile(path.join(corpus, 'bits.jpg'), bad);
    const manifest = await writeManifest(corpus, [
      entry('coffee', 'coffee.png'),
      entry('bits', 'bits.jpg'),
    ]);
    const r = await runCli(['ingest', manifest, '--json']);
    expect(r.code).toBe(1);
    const problems = r.json().problems.filter((p: { entry: string }) => p.entry === 'bits');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'E_IMAGE_CORRUPT' });
    expect(String(problems[0].message)).toMatch(/corrupt/);
  });
});
