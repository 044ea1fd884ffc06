/**
 * `stimkit demo`: the pipeline on the shipped demo corpus, offline — ingest, the seven variants
 * with their contact sheet, the demo study sealed into a bundle, that bundle verified, and run
 * against the simulated respondents of manifests/demo.models.yaml into `ledger.sqlite`.
 *
 * Outputs go under `out` in the layout `stimkit bundle --work` uses (`corpus/`, `variants/`), so
 * the bundle step finds the locks the earlier steps wrote; nothing is written into the package.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { bundleHuman, bundleJson, bundleStudy } from '../bundle/index.js';
import { relPosix } from '../core/fsio.js';
import { PACKAGE_ROOT } from '../core/tool.js';
import { ingest } from '../ingest/ingest.js';
import { ingestHuman, ingestJson } from '../ingest/summary.js';
import { runVariants } from '../variants/run.js';
import { segmenterAvailable } from '../variants/segment/index.js';
import { ISNET_REINSTALL } from '../variants/segment/runtime.js';
import { variantsHuman, variantsJson } from '../variants/summary.js';
import { verifyBundle, verifyHuman, verifyJson } from '../verify/index.js';
import { runStudy, type RunResult } from '../run/run.js';
import { runHuman, runJson } from '../run/summary.js';
import { scoreAndReport } from './audit-steps.js';
import { demoRunHuman, demoRunSummary } from './run-summary.js';

/** The shipped demo files, inside the installed package. */
const DEMO = {
  entries: path.join(PACKAGE_ROOT, 'manifests', 'demo.entries.yaml'),
  study: path.join(PACKAGE_ROOT, 'manifests', 'demo.study.yaml'),
  models: path.join(PACKAGE_ROOT, 'manifests', 'demo.models.yaml'),
};

export interface DemoStep {
  step: string;
  ok: boolean;
  human: string;
  summary: unknown;
}

export interface DemoResult {
  ok: boolean;
  out: string;
  digest: string | null;
  steps: DemoStep[];
  /** The A6 method used: `isnet`, or `grabcut` when isnet cannot run here. */
  silhouette: 'isnet' | 'grabcut';
  /** What the demo wrote into `out`, folders with a trailing `/` (SQLite's -wal/-shm left out). */
  outputs: string[];
  /** The file to open first (relative to `out`), once the report is written. */
  open: string | null;
}

export interface DemoOptions {
  jobs?: number;
  log?: (line: string) => void;
  /** Whether isnet can run here (default: `segmenterAvailable('isnet')`); tests stand in for it. */
  isnetAvailable?: () => Promise<{ ok: boolean; reason?: string }>;
  /**
   * Stop once the sealed bundle is verified (`'verify'`), before the run, score and report steps;
   * the result then lists the steps taken. Default: every step.
   */
  stopAfter?: 'verify';
}

/** The files and folders directly in `out`, folders marked with `/`, sorted. */
function listOutputs(out: string): string[] {
  try {
    return readdirSync(out, { withFileTypes: true })
      .filter((d) => !/-(wal|shm)$/.test(d.name))
      .map((d) => (d.isDirectory() ? `${d.name}/` : d.name))
      .sort();
  } catch {
    return [];
  }
}

/**
 * The A6 method: isnet when it can run, else grabcut, said once in one line with the fix
 * (instead of one long error per entry).
 */
async function chooseSilhouette(
  options: DemoOptions,
  say: (line: string) => void,
): Promise<'isnet' | 'grabcut'> {
  const found = await (options.isnetAvailable ?? (() => segmenterAvailable('isnet')))();
  if (found.ok) return 'isnet';
  const why = (found.reason ?? 'unknown reason').split(/; |\. Fix/)[0];
  say(
    `A6: isnet cannot run here (${why}); using --silhouette grabcut instead. Fix: ${ISNET_REINSTALL}`,
  );
  return 'grabcut';
}

/** Run every demo stage into `out`; stops at the first stage that fails. */
export async function runDemo(out: string, options: DemoOptions = {}): Promise<DemoResult> {
  const steps: DemoStep[] = [];
  const say = options.log ?? (() => undefined);
  const silhouette = await chooseSilhouette(options, say);
  const done = (digest: string | null = null): DemoResult => {
    const ok = steps.every((s) => s.ok);
    const report = ok && steps.some((s) => s.step === 'report');
    return {
      ok,
      out,
      digest,
      steps,
      silhouette,
      outputs: listOutputs(out),
      open: report ? 'report/index.html' : null,
    };
  };

  say('ingest: validating the demo corpus');
  const ingested = await ingest(DEMO.entries, {
    out: path.join(out, 'corpus'),
    jobs: options.jobs,
  });
  steps.push({
    step: 'ingest',
    ok: ingested.errors === 0,
    human: ingestHuman(ingested),
    summary: ingestJson(ingested),
  });
  if (ingested.errors > 0 || !ingested.lockFile) return done();

  say(
    silhouette === 'isnet'
      ? 'variants: the seven-step abstraction ladder (A6 runs a segmentation network, a few seconds per image)'
      : 'variants: the seven-step abstraction ladder (A6 by GrabCut)',
  );
  const variants = await runVariants(ingested.lockFile, {
    out: path.join(out, 'variants'),
    jobs: options.jobs,
    overrides: silhouette === 'grabcut' ? { silhouette } : {},
  });
  steps.push({
    step: 'variants',
    ok: variants.failed === 0,
    human: variantsHuman(variants),
    summary: variantsJson(variants),
  });
  if (variants.failed > 0) return done();

  say('bundle: sealing the demo study');
  const bundleDir = path.join(out, 'bundle');
  const bundled = await bundleStudy(DEMO.study, {
    out: bundleDir,
    work: out,
    jobs: options.jobs,
    log: say,
    silhouette: silhouette === 'grabcut' ? silhouette : undefined,
  });
  steps.push({
    step: 'bundle',
    ok: true,
    human: bundleHuman(bundled),
    summary: bundleJson(bundled),
  });

  say('verify: re-hashing the sealed bundle');
  const verified = await verifyBundle(bundleDir);
  steps.push({
    step: 'verify',
    ok: verified.ok,
    human: verifyHuman(verified),
    summary: verifyJson(verified),
  });
  if (!verified.ok || options.stopAfter === 'verify') return done(bundled.digest);

  const ledger = path.join(out, 'ledger.sqlite');
  const ran = await runStep(bundleDir, ledger, say);
  steps.push(ran.step);
  if (ran.interrupted) return done(bundled.digest);
  steps.push(...(await scoreAndReport(out, bundleDir, ledger, DEMO.models, say)));
  return done(bundled.digest);
}

/** Run the demo bundle against the simulated respondents into `ledger`. */
async function runStep(
  bundleDir: string,
  ledger: string,
  say: (line: string) => void,
): Promise<{ step: DemoStep; interrupted: boolean }> {
  say('run: the demo bundle against the simulated respondents of demo.models.yaml');
  const ran = (await runStudy({ bundle: bundleDir, modelsFile: DEMO.models, ledger })) as RunResult;
  const models = demoRunSummary(ledger);
  return {
    step: {
      step: 'run',
      ok: !ran.interrupted,
      human: `${runHuman(ran)}\n${demoRunHuman(relPosix(process.cwd(), ledger), models)}`,
      summary: { ...runJson(ran), simulated: models },
    },
    interrupted: ran.interrupted,
  };
}
