/**
 * `npm run bench -- sim [--repeat N]`
 *
 * Throughput of the simulated respondents (`provider: sim`): the demo bundle is sealed into a
 * temporary folder (from the committed demo variants), then
 * 1. every demo trial is simulated by each proposed respondent (SIM_PRESETS), `--repeat` times
 *    under different model names: trials per second, instrument and VLM apart;
 * 2. the instrument paper's shape, 11 sim models × 1,792 instrument trials (7 topics × 2 languages
 *    × 2 framings × 64 iterations) = 19,712 replies: wall time and trials per second.
 * No target is set by the issue; a power analysis of 1,000 simulated studies of that size is
 * 19.7 million replies, so the figure says how long one takes.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bundleStudy } from '../src/bundle/bundle.js';
import type { Trial } from '../src/bundle/format.js';
import { PACKAGE_ROOT } from '../src/core/tool.js';
import { loadSimBundle, SIM_PRESETS, simParamsSchema, simulate } from '../src/sim/index.js';

const args = process.argv.slice(3);
const i = args.indexOf('--repeat');
const repeat = i >= 0 ? Number(args[i + 1]) : 10;

const root = await mkdtemp(path.join(os.tmpdir(), 'stimkit-bench-sim-'));
try {
  const r = await bundleStudy(path.join(PACKAGE_ROOT, 'manifests', 'demo.study.yaml'), {
    out: path.join(root, 'bag'),
    work: path.join(root, 'work'),
  });
  const bundle = await loadSimBundle(r.out!);
  const trials = (await readFile(path.join(r.out!, 'data', 'trials.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Trial);
  const kinds = {
    instrument: trials.filter((t) => t.paradigm === 'instrument'),
    vlm: trials.filter((t) => t.paradigm !== 'instrument'),
  };
  for (const [kind, list] of Object.entries(kinds)) {
    let n = 0;
    const t0 = performance.now();
    for (const p of SIM_PRESETS) {
      const params = simParamsSchema.parse(p.sim);
      for (let rep = 0; rep < repeat; rep += 1)
        for (const t of list) {
          simulate(params, `${p.name}-${rep}`, t, bundle);
          n += 1;
        }
    }
    const s = (performance.now() - t0) / 1000;
    process.stdout.write(
      `${kind}: ${n} replies in ${s.toFixed(2)} s = ${(n / s).toFixed(0)} replies/s\n`,
    );
  }
  // The paper's instrument shape: 64 iterations of every demo instrument item, 11 models.
  const base = kinds.instrument.filter((t) => t.iteration === 0);
  const paper = base.flatMap((t) =>
    Array.from({ length: 64 }, (_, it) => ({
      ...t,
      iteration: it,
      id: `t_${t.id.slice(2, 20)}${it.toString(16).padStart(6, '0')}`,
    })),
  );
  const params = simParamsSchema.parse(SIM_PRESETS[1]!.sim);
  const t0 = performance.now();
  for (let m = 0; m < 11; m += 1) for (const t of paper) simulate(params, `sim-${m}`, t, bundle);
  const s = (performance.now() - t0) / 1000;
  process.stdout.write(
    `paper instrument shape: ${paper.length * 11} replies (11 models × ${paper.length}) in ${s.toFixed(2)} s = ${((paper.length * 11) / s).toFixed(0)} replies/s\n`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
