/**
 * `npm run bench -- analyze [--rounds N] [--reps N] [--csv FILE]`
 *
 * The cluster-robust logit of the audit paper's main model (y ~ zh + cn + C(paradigm), reference
 * direct, clustered by `cluster`, statsmodels correction) on logit_main_21708x298.csv (21,708
 * rows, 298 clusters), stimkit against Debian's python3-statsmodels (/usr/bin/python3) on the same
 * file, like with like:
 *   - load: stimkit `readTable` (parse, trim, sha256) | pandas `read_csv`;
 *   - design+fit: `regressTable` (column checks, factor coding, design, IRLS, sandwich, Wald
 *     table) | `smf.logit(formula, df).fit(cov_type='cluster')` (patsy design, Newton, sandwich);
 *   - output: the JSON report and the human table the CLI prints | `summary().as_text()`;
 *   - load+fit+output: the sum of the three, timed per repetition;
 *   - fit alone on a design already in memory: `logit(y, X)` | `sm.Logit(y, X).fit(...)`;
 *   - first load+fit+output of a fresh process (cold JIT; stimkit also loads its distribution
 *     functions here, statsmodels has imported everything before);
 *   - whole process: the built CLI `stimkit analyze logit … --json` | a python script that imports
 *     pandas and statsmodels, reads, fits and prints the summary; wall time and peak RSS by
 *     /usr/bin/time.
 * The machine is shared, so the two sides alternate: each round runs one process of each kind for
 * both tools, the order flipping every round, and every figure is reported as median [min–max]
 * over all rounds with the ratio of medians and of minima. Target: stimkit no slower (ratio ≤ 1).
 * Also checks that the two agree (coefficients, SEs) and that stimkit matches the reference vector.
 * The CSV is looked up as --csv, else ../shared/data/vectors/ or ../../shared/data/vectors/ from
 * the repository (the shared folder of the project); when absent: exit 2.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { regressHuman } from '../src/analyze/format.js';
import { regressTable } from '../src/analyze/regress.js';
import { column, readTable } from '../src/analyze/table.js';
import { PACKAGE_ROOT } from '../src/core/tool.js';
import { buildDesignFromColumns, logit } from '../src/stats/index.js';

const args = process.argv.slice(3);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const rounds = Number(flag('rounds') ?? 7);
const reps = Number(flag('reps') ?? 5);
const NAME = 'logit_main_21708x298.csv';
const csv =
  flag('csv') ??
  [
    path.join(PACKAGE_ROOT, '..', 'shared', 'data', 'vectors', NAME),
    path.join(PACKAGE_ROOT, '..', '..', 'shared', 'data', 'vectors', NAME),
  ].find((p) => existsSync(p));
const PHASES = ['load', 'fit', 'output', 'total', 'fitOnly', 'first'] as const;
type Phase = (typeof PHASES)[number];
type Timings = Record<Phase, number[]> & { coef: number[]; se: number[]; iterations?: number };

const PARAMS = {
  outcome: 'y',
  predictors: ['zh', 'cn', 'paradigm'],
  reference: { paradigm: 'direct' },
  interactions: [],
  cluster: 'cluster',
  correction: 'statsmodels',
  conf: 0.95,
} as const;

/** One stimkit process: a cold load+fit+output, then `n` timed repetitions of each phase. */
function child(file: string, n: number): void {
  const out: Timings = {
    load: [],
    fit: [],
    output: [],
    total: [],
    fitOnly: [],
    first: [],
    coef: [],
    se: [],
  };
  const once = () => {
    const t0 = performance.now();
    const table = readTable(file);
    const t1 = performance.now();
    const report = regressTable('logit', table, {
      ...PARAMS,
      predictors: [...PARAMS.predictors],
      interactions: [],
    });
    const t2 = performance.now();
    const text = `${JSON.stringify(report, null, 2)}\n${regressHuman(report)}`;
    const t3 = performance.now();
    if (text.length === 0) throw new Error('no output');
    return { table, report, times: [t1 - t0, t2 - t1, t3 - t2, t3 - t0] };
  };
  const first = once();
  out.first.push(first.times[3]!);
  out.coef = first.report.result.coef;
  out.se = first.report.result.se;
  out.iterations = first.report.result.iterations;
  const t = first.table;
  const y = t.data[t.columns.indexOf('y')]!.map(Number);
  const d = buildDesignFromColumns(t.n, (c) => column(t, c)!, {
    predictors: PARAMS.predictors,
    reference: PARAMS.reference,
  });
  const cluster = column(t, 'cluster')!;
  for (let i = 0; i < n; i++) {
    const { times } = once();
    (['load', 'fit', 'output', 'total'] as const).forEach((k, j) => out[k].push(times[j]!));
    const a = performance.now();
    logit(y, d, { cluster });
    out.fitOnly.push(performance.now() - a);
  }
  process.stdout.write(JSON.stringify(out));
}

const PY = String.raw`
import sys, time, json
import numpy as np, pandas as pd, statsmodels.api as sm, statsmodels.formula.api as smf
f, n, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
F = 'y ~ zh + cn + C(paradigm, Treatment(reference="direct"))'
def once():
    t0 = time.perf_counter(); df = pd.read_csv(f)
    t1 = time.perf_counter(); r = smf.logit(F, df).fit(disp=0, cov_type='cluster', cov_kwds={'groups': df['cluster']})
    t2 = time.perf_counter(); text = r.summary().as_text()
    t3 = time.perf_counter()
    return df, r, text, [(t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3, (t3 - t0) * 1e3]
if mode == 'cli':
    df, r, text, _ = once(); print(text); sys.exit(0)
out = {k: [] for k in ['load', 'fit', 'output', 'total', 'fitOnly', 'first']}
df, r, text, times = once()
out['first'].append(times[3])
order = [0, 3, 4, 1, 2]
out['coef'] = [float(r.params.iloc[i]) for i in order]; out['se'] = [float(r.bse.iloc[i]) for i in order]
m = smf.logit(F, df); y, X, groups = m.endog, m.exog, df['cluster'].values
for _ in range(n):
    _, _, _, times = once()
    for k, v in zip(['load', 'fit', 'output', 'total'], times): out[k].append(v)
    t = time.perf_counter(); sm.Logit(y, X).fit(disp=0, cov_type='cluster', cov_kwds={'groups': groups}); out['fitOnly'].append((time.perf_counter() - t) * 1e3)
print(json.dumps(out))
`;

/** Wall ms and peak RSS (MB) of a whole command, by /usr/bin/time; null when unavailable or failed. */
function gnuTime(cmd: string, argv: string[]): { wallMs: number; rssMb: number } | null {
  if (!existsSync('/usr/bin/time')) return null;
  const r = spawnSync('/usr/bin/time', ['-f', '@@%M %e', cmd, ...argv], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const m = /@@(\d+) ([\d.]+)\s*$/.exec(r.stderr ?? '');
  return r.status === 0 && m ? { rssMb: Number(m[1]) / 1024, wallMs: Number(m[2]) * 1000 } : null;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
};

if (process.argv[2] === '--child') {
  child(process.argv[3]!, Number(process.argv[4]));
} else {
  if (!csv || !existsSync(csv)) {
    process.stderr.write(`bench analyze: ${NAME} not found; pass --csv FILE\n`);
    process.exit(2);
  }
  const self = fileURLToPath(import.meta.url);
  const bin = path.join(PACKAGE_ROOT, 'bin', 'stimkit.js');
  const built = existsSync(path.join(PACKAGE_ROOT, 'dist', 'cli', 'commands-for.js'));
  const cliArgs = [
    bin,
    'analyze',
    'logit',
    csv,
    '--outcome',
    'y',
    '--predictors',
    'zh,cn,paradigm',
    '--reference',
    'paradigm=direct',
    '--cluster',
    'cluster',
    '--json',
  ];
  const acc = { ours: {} as Record<string, number[]>, py: {} as Record<string, number[]> };
  const push = (side: 'ours' | 'py', k: string, v: number) => (acc[side][k] ??= []).push(v);
  let oursRun: Timings | undefined;
  let pyRun: Timings | undefined;
  const load0 = loadavg()[0]!;
  for (let r = 0; r < rounds; r++) {
    const sides = r % 2 === 0 ? (['ours', 'py'] as const) : (['py', 'ours'] as const);
    for (const side of sides) {
      const whole =
        side === 'ours'
          ? built
            ? gnuTime(process.execPath, cliArgs)
            : null
          : gnuTime('/usr/bin/python3', ['-c', PY, csv, '0', 'cli']);
      if (whole) {
        push(side, 'wall', whole.wallMs);
        push(side, 'rss', whole.rssMb);
      }
    }
    for (const side of sides) {
      const out =
        side === 'ours'
          ? execFileSync(
              process.execPath,
              ['--import', 'tsx', self, '--child', csv, String(reps)],
              { encoding: 'utf8', maxBuffer: 1 << 24 },
            )
          : execFileSync('/usr/bin/python3', ['-c', PY, csv, String(reps), 'bench'], {
              encoding: 'utf8',
              maxBuffer: 1 << 24,
            });
      const t = JSON.parse(out) as Timings;
      for (const k of PHASES) for (const v of t[k]) push(side, k, v);
      if (side === 'ours') oursRun = t;
      else pyRun = t;
    }
  }
  const rel = (a: number[], b: number[]) =>
    Math.max(...a.map((v, i) => (v === b[i] ? 0 : Math.abs(v - b[i]!) / Math.abs(b[i]!))));
  // the reference vector of this file (statsmodels 0.13.5 / R sandwich), all three corrections
  const vectors = JSON.parse(
    readFileSync(path.join(PACKAGE_ROOT, 'test', 'stats', 'vectors', 'logit_cluster.json'), 'utf8'),
  );
  const main = vectors.cases.find((c: { name: string }) => c.name === 'main_21708x298').expected;
  const t = readTable(csv);
  const y = t.data[t.columns.indexOf('y')]!.map(Number);
  const d = buildDesignFromColumns(t.n, (c) => column(t, c)!, {
    predictors: [...PARAMS.predictors],
    reference: PARAMS.reference,
  });
  const vecDiff = (['statsmodels', 'G', 'none'] as const).map((correction) => {
    const r = logit(y, d, { cluster: column(t, 'cluster')!, correction });
    return `${correction} ${Math.max(
      rel(r.coef, main.coef),
      rel(r.se, main[`cluster_${correction}`].se),
      rel(
        r.terms.map((x) => x.p),
        main[`cluster_${correction}`].p,
      ),
    ).toExponential(2)}`;
  });
  const f = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
  const cell = (xs: number[] | undefined) =>
    (xs?.length ? `${f(median(xs))} [${f(Math.min(...xs))}–${f(Math.max(...xs))}]` : 'n/a').padEnd(
      22,
    );
  const ratio = (k: string, g: (xs: number[]) => number) =>
    acc.ours[k]?.length && acc.py[k]?.length ? (g(acc.ours[k]) / g(acc.py[k])).toFixed(3) : 'n/a';
  const verdict: string[] = [];
  const row = (label: string, k: string, target: boolean) => {
    const a = ratio(k, median);
    const b = ratio(k, (xs) => Math.min(...xs));
    if (target)
      verdict.push(
        `${label.trim()} ${Number(a) <= 1 && Number(b) <= 1 ? 'met' : Number(a) <= 1 || Number(b) <= 1 ? 'met on one of median/min' : 'MISSED'}`,
      );
    return `${label.padEnd(30)}${cell(acc.ours[k])}${cell(acc.py[k])}${a.padStart(7)}  ${b.padStart(7)}`;
  };
  const nWarm = rounds * reps;
  const lines = [
    `cluster-robust logit, ${NAME} (21,708 rows, 298 clusters, 5 terms); ${csv}`,
    `${rounds} rounds alternating stimkit and statsmodels; per round one whole process each and one timing process each (${reps} warm repetitions, so ${nWarm} samples per warm figure, ${rounds} per cold/whole-process figure)`,
    `median [min–max], ms unless stated   stimkit               statsmodels            ratio of medians, of minima (stimkit/statsmodels)`,
    row('load (CSV → table)', 'load', false),
    row('design + fit', 'fit', false),
    row('output (report + table)', 'output', false),
    row('load + fit + output', 'total', true),
    row('fit alone, design in memory', 'fitOnly', true),
    row('first load+fit+output (cold)', 'first', false),
    built
      ? row('whole process wall', 'wall', true)
      : 'whole process: built CLI not found (run npm run build first)',
    built ? row('whole process peak RSS (MB)', 'rss', true) : '',
    `cold: the first call in a fresh process; stimkit's includes loading its distribution functions (@stdlib, on first use), statsmodels' imports are already done (they are in the whole-process figure)`,
    `whole process: stimkit = node bin/stimkit.js analyze logit … --json (built dist/); statsmodels = /usr/bin/python3 importing pandas + statsmodels, read_csv, fit, print(summary())`,
    `agreement with this statsmodels run: max relative difference coef ${rel(oursRun!.coef, pyRun!.coef).toExponential(2)}, SE ${rel(oursRun!.se, pyRun!.se).toExponential(2)}; IRLS iterations ${oursRun!.iterations}`,
    `agreement with the reference vector (max relative difference of coef, SE, p): ${vecDiff.join(', ')}`,
    `target, no slower than statsmodels: ${verdict.join('; ')}`,
    `machine load average ${load0.toFixed(1)} at start, ${loadavg()
      .map((v) => v.toFixed(1))
      .join(
        ' ',
      )} at end, on ${availableParallelism()} cores (figures from a busy machine spread: compare the minima)`,
  ];
  process.stdout.write(`${lines.filter(Boolean).join('\n')}\n`);
}
