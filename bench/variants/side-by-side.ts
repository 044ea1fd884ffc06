/**
 * The whole-process comparison of `npm run bench -- variants`: `stimkit variants --only A0–A5
 * --no-contact-sheet` as a user runs it (from dist/, default --jobs: every core; `--side-jobs N`
 * for another count) against
 * bench/variants_opencv.py (Debian's /usr/bin/python3 with python3-opencv) on the same photos,
 * alternating, each from start to exit, timed by /usr/bin/time when present (wall, user and system CPU, peak RSS) or by the clock. Both
 * write their PNGs at the zlib level of stimkit's default recipe (output.png_compression).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultRecipe } from '../../src/variants/recipe.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PYTHON = '/usr/bin/python3';
const SCRIPT = path.join(ROOT, 'bench', 'variants_opencv.py');

/** One timed process. */
interface Timed {
  wall: number;
  /** user + system CPU seconds (null without /usr/bin/time). */
  cpu: number | null;
  rssMiB: number | null;
}

/** Why the OpenCV script cannot run here, or null when it can. */
function opencvMissing(): string | null {
  if (!existsSync(PYTHON))
    return `${PYTHON} is not there (install Debian's python3 and python3-opencv)`;
  const r = spawnSync(PYTHON, ['-c', 'import cv2, numpy'], { encoding: 'utf8' });
  return r.status === 0
    ? null
    : `${PYTHON} cannot import cv2/numpy (apt-get install python3-opencv): ${r.stderr.trim().split('\n').pop()}`;
}

function timed(cmd: string[]): Timed {
  const useTime = existsSync('/usr/bin/time');
  const argv = useTime ? ['/usr/bin/time', '-f', 'TIME %e %U %S %M', ...cmd] : cmd;
  const t = performance.now();
  const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', maxBuffer: 1 << 26, cwd: ROOT });
  const wall = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} exited ${r.status}:\n${r.stderr}`);
  const line = r.stderr.split('\n').find((l) => l.startsWith('TIME '));
  if (!line) return { wall, cpu: null, rssMiB: null };
  const [, e, u, s, m] = line.split(' ').map(Number);
  return { wall: e!, cpu: u! + s!, rssMiB: m! / 1024 };
}

/** Both processes `repeat` times, alternating; stimkit also with `--metrics basic` when asked. */
function sideBySide(
  dir: string,
  files: string[],
  repeat: number,
  basic: boolean,
  jobs: number | null,
): Array<{ stimkit: Timed; basic?: Timed; opencv: Timed }> {
  const stimkit = (out: string, extra: string[]) => {
    rmSync(out, { recursive: true, force: true });
    const bin = path.join(ROOT, 'bin', 'stimkit.js');
    return timed([
      process.execPath,
      bin,
      'variants',
      path.join(dir, 'corpus.lock.json'),
      '--only',
      'A0,A1,A2,A3,A4,A5',
      ...(jobs === null ? [] : ['--jobs', String(jobs)]),
      '--no-contact-sheet',
      '--out',
      out,
      ...extra,
    ]);
  };
  const runs = [];
  for (let i = 0; i < repeat; i++) {
    const py = path.join(dir, 'side-opencv');
    rmSync(py, { recursive: true, force: true });
    // The script writes its PNGs at the zlib level stimkit's default recipe uses.
    const opencv = timed([
      PYTHON,
      SCRIPT,
      '--out',
      py,
      '--png-level',
      String(defaultRecipe().output.png_compression),
      ...files,
    ]);
    const s = stimkit(path.join(dir, 'side-stimkit'), []);
    const b = basic ? stimkit(path.join(dir, 'side-basic'), ['--metrics', 'basic']) : undefined;
    runs.push({ stimkit: s, opencv, ...(b ? { basic: b } : {}) });
  }
  return runs;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const load = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The report lines of `sideBySide` (or why it was skipped): per-run times, medians and ratios. */
export function sideReport(
  dir: string,
  files: string[],
  repeat: number,
  jobs: number | null = null,
): string[] {
  const missing = opencvMissing();
  if (missing) return ['', `side by side with OpenCV/numpy: skipped: ${missing}`];
  const before = load();
  const runs = sideBySide(dir, files, repeat, true, jobs);
  type Run = (typeof runs)[number];
  const med = (pick: (r: Run) => number | null | undefined) =>
    median(runs.map(pick).filter((x): x is number => typeof x === 'number'));
  const row = (label: string, pick: (r: Run) => Timed | undefined) =>
    `${label.padEnd(34)} ${runs.map((r) => pick(r)!.wall.toFixed(2)).join(' / ')} s wall (median ${med((r) => pick(r)?.wall).toFixed(2)}), CPU ${runs.map((r) => pick(r)?.cpu?.toFixed(2) ?? '?').join(' / ')} s (median ${med((r) => pick(r)?.cpu).toFixed(2)}), peak RSS ${med((r) => pick(r)?.rssMiB).toFixed(0)} MiB`;
  const ratio = (pick: (r: Run) => number) => median(runs.map(pick)).toFixed(2);
  const fastest = (pick: (r: Run) => Timed | undefined) =>
    Math.min(...runs.map((r) => pick(r)?.wall ?? Infinity));
  const script = fastest((r) => r.opencv);
  const out = [
    '',
    `whole process, ${files.length} photos, A0–A5 + PNGs, stimkit ${jobs === null ? `default --jobs (${os.availableParallelism()} cores)` : `--jobs ${jobs}`}, ${runs.length} alternating runs (load average before ${before}, after ${load()}):`,
    row('OpenCV/numpy (variants_opencv.py)', (r) => r.opencv),
    row('stimkit variants (metrics full)', (r) => r.stimkit),
    row('stimkit variants --metrics basic', (r) => r.basic),
    'stimkit ÷ OpenCV, median of per-run ratios (target ≤ 0.5×):',
    `  wall: full ${ratio((r) => r.stimkit.wall / r.opencv.wall)}×, basic ${ratio((r) => r.basic!.wall / r.opencv.wall)}×`,
    // On this shared machine either side can run 25–45 % slower for minutes, each on its own, so
    // a pair of runs may straddle a slow spell; each side's fastest run is its speed on a quiet
    // machine. (A median against the other side's fastest run would count one side's slow spells
    // only.)
    `  wall, fastest run against the script's fastest (${script.toFixed(2)} s): full ${(fastest((r) => r.stimkit) / script).toFixed(2)}×, basic ${(fastest((r) => r.basic) / script).toFixed(2)}×`,
  ];
  if (runs[0]!.opencv.cpu !== null)
    out.push(
      `  CPU:  full ${ratio((r) => r.stimkit.cpu! / r.opencv.cpu!)}×, basic ${ratio((r) => r.basic!.cpu! / r.opencv.cpu!)}×`,
    );
  return out;
}
