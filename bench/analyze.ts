/**
 * `npm run bench -- analyze [--repeat N] [--csv FILE]`
 *
 * The cluster-robust logit of the audit paper's main model (y ~ zh + cn + C(paradigm), reference
 * direct, clustered by `cluster`, statsmodels correction) on logit_main_21708x298.csv (21,708
 * rows, 298 clusters), stimkit against Debian's python3-statsmodels on the same file, each in its
 * own process:
 *   - fit: IRLS + cluster-robust covariance on data already in memory (median and best of N runs);
 *   - load+fit: what `stimkit analyze logit` does: read and parse the CSV, check the columns,
 *     build the design, fit (median and best of N runs; pandas read_csv + formula for statsmodels);
 *   - process: wall time of a whole child process doing one load+fit (interpreter start and
 *     imports included), and its peak RSS.
 * Target: stimkit no slower than statsmodels. Also checks that the two agree (max relative
 * difference of coefficients and SEs).
 * The CSV is looked up as --csv, else ../shared/data/vectors/ or ../../shared/data/vectors/ from
 * the repository (the shared folder of the project), else test vectors are not enough: exit 2.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { regressTable } from '../src/analyze/regress.js';
import { readTable } from '../src/analyze/table.js';
import { PACKAGE_ROOT } from '../src/core/tool.js';
import { buildDesign, logit } from '../src/stats/index.js';

const args = process.argv.slice(3);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const repeat = Number(flag('repeat') ?? 15);
const NAME = 'logit_main_21708x298.csv';
const csv =
  flag('csv') ??
  [path.join(PACKAGE_ROOT, '..', 'shared', 'data', 'vectors', NAME), path.join(PACKAGE_ROOT, '..', '..', 'shared', 'data', 'vectors', NAME)].find((p) => existsSync(p));
const median = (xs: number[]): number | null => (xs.length ? [...xs].sort((a, b) => a - b)[xs.length >> 1]! : null);
const min = (xs: number[]): number | null => (xs.length ? Math.min(...xs) : null);

/** The data in memory. */
function inMemoryData(file: string) {
  const { rows } = readTable(file);
  const y = rows.map((r) => Number(r.y));
  const d = buildDesign(rows, { predictors: ['zh', 'cn', 'paradigm'], reference: { paradigm: 'direct' } });
  return { y, d, cluster: rows.map((r) => r.cluster!) };
}

/** The fit alone, on data in memory. */
function inMemory(file: string) {
  const { y, d, cluster } = inMemoryData(file);
  return () => logit(y, d, { cluster });
}

/** What `stimkit analyze logit FILE --outcome y --predictors zh,cn,paradigm --reference paradigm=direct --cluster cluster` does. */
function loadFit(file: string) {
  return regressTable('logit', readTable(file), {
    outcome: 'y',
    predictors: ['zh', 'cn', 'paradigm'],
    reference: { paradigm: 'direct' },
    interactions: [],
    cluster: 'cluster',
    correction: 'statsmodels',
    conf: 0.95,
  }).result;
}

function child(file: string, n: number) {
  const t0 = performance.now();
  const r = loadFit(file);
  const firstMs = performance.now() - t0;
  const fit = inMemory(file);
  const fitTimes: number[] = [];
  const loadFitTimes: number[] = [];
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    fit();
    fitTimes.push(performance.now() - t);
    t = performance.now();
    loadFit(file);
    loadFitTimes.push(performance.now() - t);
  }
  process.stdout.write(
    JSON.stringify({ firstMs, fitMs: median(fitTimes), loadFitMs: median(loadFitTimes), fitMin: min(fitTimes), loadFitMin: min(loadFitTimes), maxRssKb: process.resourceUsage().maxRSS, names: r.names, coef: r.coef, se: r.se, iterations: r.iterations }),
  );
}

const PY = String.raw`
import sys, time, json, resource
t0 = time.perf_counter()
import numpy as np, pandas as pd, statsmodels.formula.api as smf
t_imp = time.perf_counter() - t0
f, n = sys.argv[1], int(sys.argv[2])
F = 'y ~ zh + cn + C(paradigm, Treatment(reference="direct"))'
def load_fit():
    df = pd.read_csv(f)
    return df, smf.logit(F, df).fit(disp=0, cov_type='cluster', cov_kwds={'groups': df['cluster']})
t = time.perf_counter(); df, r = load_fit(); first = time.perf_counter() - t
fits, lfs = [], []
m = smf.logit(F, df)
for _ in range(n):
    t = time.perf_counter(); smf.logit(F, df).fit(disp=0, cov_type='cluster', cov_kwds={'groups': df['cluster']}); fits.append(time.perf_counter() - t)
    t = time.perf_counter(); load_fit(); lfs.append(time.perf_counter() - t)
order = [0, 3, 4, 1, 2]
print(json.dumps({'importMs': t_imp * 1e3, 'firstMs': first * 1e3, 'fitMs': float(np.median(fits)) * 1e3 if fits else None, 'loadFitMs': float(np.median(lfs)) * 1e3 if lfs else None, 'fitMin': min(fits) * 1e3 if fits else None, 'loadFitMin': min(lfs) * 1e3 if lfs else None,
  'maxRssKb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, 'coef': [float(r.params.iloc[i]) for i in order], 'se': [float(r.bse.iloc[i]) for i in order]}))
`;

/** Wall seconds and peak RSS (MB) of a whole command, by /usr/bin/time; null when unavailable. */
function gnuTime(cmd: string, argv: string[]): { wallMs: number; rssMb: number } | null {
  if (!existsSync('/usr/bin/time')) return null;
  const r = spawnSync('/usr/bin/time', ['-f', '@@%M %e', cmd, ...argv], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const m = /@@(\d+) ([\d.]+)\s*$/.exec(r.stderr ?? '');
  return r.status === 0 && m ? { rssMb: Number(m[1]) / 1024, wallMs: Number(m[2]) * 1000 } : null;
}

function timed(cmd: string, argv: string[]): { out: any; wallMs: number } {
  const t = performance.now();
  const out = execFileSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 24 });
  return { out: JSON.parse(out), wallMs: performance.now() - t };
}

if (process.argv[2] === '--child') {
  child(process.argv[3]!, Number(process.argv[4]));
} else {
  if (!csv || !existsSync(csv)) {
    process.stderr.write(`bench analyze: ${NAME} not found; pass --csv FILE\n`);
    process.exit(2);
  }
  const self = fileURLToPath(import.meta.url);
  // one process each for peak RSS of a single load+fit, then the timing runs
  const ours1 = timed(process.execPath, ['--import', 'tsx', self, '--child', csv, '0']);
  const py1 = timed('/usr/bin/python3', ['-c', PY, csv, '0']);
  const ours = timed(process.execPath, ['--import', 'tsx', self, '--child', csv, String(repeat)]).out;
  const py = timed('/usr/bin/python3', ['-c', PY, csv, String(repeat)]).out;
  // the installed CLI (dist/, no transpiler) against a python process doing one load+fit
  const bin = path.join(PACKAGE_ROOT, 'bin', 'stimkit.js');
  const cli = existsSync(path.join(PACKAGE_ROOT, 'dist', 'analyze', 'regress.js'))
    ? gnuTime(process.execPath, [bin, 'analyze', 'logit', csv, '--outcome', 'y', '--predictors', 'zh,cn,paradigm', '--reference', 'paradigm=direct', '--cluster', 'cluster', '--json'])
    : null;
  const pyCli = gnuTime('/usr/bin/python3', ['-c', PY, csv, '0']);
  const rel = (a: number[], b: number[]) => Math.max(...a.map((v, i) => (v === b[i] ? 0 : Math.abs(v - b[i]!) / Math.abs(b[i]!))));
  // the reference vector of this file (statsmodels 0.13.5 / R sandwich), all three corrections
  const vectors = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'test', 'stats', 'vectors', 'logit_cluster.json'), 'utf8'));
  const main = vectors.cases.find((c: { name: string }) => c.name === 'main_21708x298').expected;
  const fitMain = inMemoryData(csv);
  const vecDiff = (['statsmodels', 'G', 'none'] as const).map((correction) => {
    const r = logit(fitMain.y, fitMain.d, { cluster: fitMain.cluster, correction });
    return `${correction} ${Math.max(rel(r.coef, main.coef), rel(r.se, main[`cluster_${correction}`].se), rel(r.terms.map((t) => t.p), main[`cluster_${correction}`].p)).toExponential(2)}`;
  });
  const f = (v: number) => v.toFixed(1).padStart(8);
  const lines = [
    `cluster-robust logit, ${NAME} (21,708 rows, 298 clusters, 5 terms); median of ${repeat} runs; ${csv}`,
    `                        stimkit  statsmodels   ratio (stimkit/statsmodels)`,
    `fit, median (ms)     ${f(ours.fitMs)}     ${f(py.fitMs)}     ${(ours.fitMs / py.fitMs).toFixed(3)}`,
    `fit, best (ms)       ${f(ours.fitMin)}     ${f(py.fitMin)}     ${(ours.fitMin / py.fitMin).toFixed(3)}`,
    `load+fit, median (ms)${f(ours.loadFitMs)}     ${f(py.loadFitMs)}     ${(ours.loadFitMs / py.loadFitMs).toFixed(3)}`,
    `load+fit, best (ms)  ${f(ours.loadFitMin)}     ${f(py.loadFitMin)}     ${(ours.loadFitMin / py.loadFitMin).toFixed(3)}`,
    `first load+fit (ms)  ${f(ours1.out.firstMs)}     ${f(py1.out.firstMs)}     ${(ours1.out.firstMs / py1.out.firstMs).toFixed(3)}`,
    `process wall (ms)    ${f(ours1.wallMs)}     ${f(py1.wallMs)}     ${(ours1.wallMs / py1.wallMs).toFixed(3)}   (interpreter, imports${'; node via tsx'})`,
    `peak RSS (MB)        ${f(ours1.out.maxRssKb / 1024)}     ${f(py1.out.maxRssKb / 1024)}     ${(ours1.out.maxRssKb / py1.out.maxRssKb).toFixed(3)}   (one load+fit process)`,
    cli && pyCli
      ? `stimkit analyze logit (built CLI) vs python script, whole process: wall ${f(cli.wallMs)} vs ${f(pyCli.wallMs)} ms (${(cli.wallMs / pyCli.wallMs).toFixed(3)}), peak RSS ${f(cli.rssMb)} vs ${f(pyCli.rssMb)} MB (${(cli.rssMb / pyCli.rssMb).toFixed(3)})`
      : 'built CLI not measured (run npm run build first)',
    `agreement with this statsmodels run: max relative difference coef ${rel(ours.coef, py.coef).toExponential(2)}, SE ${rel(ours.se, py.se).toExponential(2)}; IRLS iterations ${ours.iterations}`,
    `agreement with the reference vector (max relative difference of coef, SE, p): ${vecDiff.join(', ')}`,
    `target, no slower than statsmodels (best of ${repeat}, the least disturbed run): fit ${ours.fitMin <= py.fitMin ? 'met' : 'MISSED'}, load+fit ${ours.loadFitMin <= py.loadFitMin ? 'met' : 'MISSED'}; medians ${ours.fitMs <= py.fitMs && ours.loadFitMs <= py.loadFitMs ? 'also met' : 'not both met'}`,
    `machine load average ${loadavg().map((v) => v.toFixed(1)).join(' ')} on ${availableParallelism()} cores`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
