/**
 * `stimkit demo`: the pipeline on the shipped demo corpus, offline — ingest, the seven variants
 * with their contact sheet, the demo study sealed into a bundle, that bundle verified, and run
 * against the simulated respondents of manifests/demo.models.yaml into `ledger.sqlite`.
 *
 * Outputs go under `out` in the layout `stimkit bundle --work` uses (`corpus/`, `variants/`), so
 * the bundle step finds the locks the earlier steps wrote; nothing is written into the package.
 */
import path from 'node:path';
import { bundleHuman, bundleJson, bundleStudy } from '../bundle/index.js';
import { relPosix } from '../core/fsio.js';
import { PACKAGE_ROOT } from '../core/tool.js';
import { ingest } from '../ingest/ingest.js';
import { ingestHuman, ingestJson } from '../ingest/summary.js';
import { runVariants } from '../variants/run.js';
import { variantsHuman, variantsJson } from '../variants/summary.js';
import { verifyBundle, verifyHuman, verifyJson } from '../verify/index.js';
import { runStudy, type RunResult } from '../run/run.js';
import { runHuman, runJson } from '../run/summary.js';
import { scoreAndReport } from './audit-steps.js';
import { demoRunHuman, demoRunSummary } from './run-summary.js';

/** The shipped demo files, inside the installed package. */
export const DEMO = {
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
}

/** Run every demo stage into `out`; stops at the first stage that fails. */
export async function runDemo(
  out: string,
  options: { jobs?: number; log?: (line: string) => void } = {},
): Promise<DemoResult> {
  const steps: DemoStep[] = [];
  const done = (digest: string | null = null): DemoResult => ({
    ok: steps.every((s) => s.ok),
    out,
    digest,
    steps,
  });
  const say = options.log ?? (() => undefined);

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
    'variants: the seven-step abstraction ladder (A6 runs a segmentation network, a few seconds per image)',
  );
  const variants = await runVariants(ingested.lockFile, {
    out: path.join(out, 'variants'),
    jobs: options.jobs,
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
  if (!verified.ok) return done(bundled.digest);

  say('run: the demo bundle against the simulated respondents of demo.models.yaml');
  const ledger = path.join(out, 'ledger.sqlite');
  const ran = (await runStudy({ bundle: bundleDir, modelsFile: DEMO.models, ledger })) as RunResult;
  const models = demoRunSummary(ledger);
  steps.push({
    step: 'run',
    ok: !ran.interrupted,
    human: `${runHuman(ran)}\n${demoRunHuman(relPosix(process.cwd(), ledger), models)}`,
    summary: { ...runJson(ran), simulated: models },
  });
  if (ran.interrupted) return done(bundled.digest);
  steps.push(...(await scoreAndReport(out, bundleDir, ledger, DEMO.models, say)));
  return done(bundled.digest);
}
