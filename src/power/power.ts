/**
 * `stimkit analyze power`: how often a study of a given size detects each simulated respondent's
 * net bias. For each number of iterations and each replication, the simulated respondents of a
 * models file answer the bundle's instrument trials (the first k iterations of one arm), the
 * answers are scored and analysed exactly as real ones, and each model's net-bias test (one-sample
 * t on its cell means, Holm across the models, and Wilcoxon) is recorded. Replication r runs every
 * respondent with seed `sim.seed + r`, so replications are independent and reruns identical.
 *
 * Without a bundle, the paper's bilingual instrument (the shipped seven geopolitics topics and
 * wrapper pools, en + zh) is bundled into a temporary folder with as many iterations as needed.
 */
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { bundleStudy } from '../bundle/bundle.js';
import { StimkitError } from '../core/errors.js';
import { PACKAGE_ROOT } from '../core/tool.js';
import { loadModelsFile } from '../models/index.js';
import type { ModelsFile } from '../models/schema.js';
import { loadScoreBundle, type ScoreBundle } from '../score/bundle.js';
import { loadSimBundle } from '../sim/index.js';
import { powerAt } from './rows.js';
import { instrumentTrials, SIM_JUDGE_ACCURACY, type SimJudge, type SimModel } from './study.js';

export interface PowerOptions {
  models: string;
  iterations: number[];
  replications: number;
  alpha: number;
  /** A bundle with an instrument arm; default: the paper's bilingual instrument, bundled on the fly. */
  bundle?: string;
  /** The arm to simulate (default: the arm with the most trials). */
  arm?: string;
  log?: (line: string) => void;
}

/** One model at one study size. */
export interface PowerRow {
  model: string;
  iterations: number;
  replications: number;
  expected_net: number;
  expected_swing: number;
  mean_net: number;
  sd_net: number;
  mean_swing: number;
  /** Mean share of responses scored 0 (neutral, refusal, or free text no judge labelled): why mean_net is nearer 0 than expected_net. */
  mean_zero_share: number;
  /** Share of replications with p < alpha: t on cell means, the same Holm-adjusted across models, Wilcoxon. */
  power_t: number;
  power_holm: number;
  power_wilcoxon: number;
}

export interface PowerResult {
  bundle: { digest: string; arm: string; generated: boolean };
  alpha: number;
  models: { name: string; origin: string | null }[];
  /** The sim judge that labelled free-text answers, as `score --judge` would; null when the models file has none. */
  judge: { name: string; accuracy: number } | null;
  rows: PowerRow[];
}

/** The paper's bilingual instrument (shipped topics and wrapper pools, en and zh) with `iterations`, bundled in `dir/bundle`. */
export async function paperBundle(dir: string, iterations: number): Promise<string> {
  for (const f of ['geopolitics.topics.yaml', 'wrappers.yaml'])
    await copyFile(path.join(PACKAGE_ROOT, 'manifests', f), path.join(dir, f));
  const study = {
    format: 'stimkit.study',
    version: 1,
    id: 'power-instrument',
    title: 'the bilingual instrument (power analysis)',
    global_seed: 271828,
    languages: ['en', 'zh'],
    sampling: { temperature: 0 },
    instrument: {
      topics: 'geopolitics.topics.yaml',
      wrappers: 'wrappers.yaml',
      sampling: { temperature: 0 },
      arms: [{ id: 'main', languages: ['en', 'zh'], iterations }],
    },
  };
  await writeFile(path.join(dir, 'study.yaml'), stringify(study));
  const out = path.join(dir, 'bundle');
  await bundleStudy(path.join(dir, 'study.yaml'), { out });
  return out;
}

/** Run the power analysis. */
export async function runPower(options: PowerOptions): Promise<PowerResult> {
  const say = options.log ?? (() => undefined);
  const file = await loadModelsFile(options.models);
  const { models, judge } = simRespondents(file, options.models);
  const maxIterations = Math.max(...options.iterations);
  const tmp = options.bundle ? null : await mkdtemp(path.join(os.tmpdir(), 'stimkit-power-'));
  try {
    if (tmp) say(`bundling the paper's bilingual instrument with ${maxIterations} iterations`);
    const bundleDir = options.bundle ?? (await paperBundle(tmp!, maxIterations));
    const bundle = await loadScoreBundle(bundleDir);
    const sim = await loadSimBundle(bundle.sealed);
    const arm = chooseArm(bundle, bundleDir, options.arm, maxIterations);
    const rows: PowerRow[] = [];
    for (const k of [...options.iterations].sort((a, b) => a - b)) {
      const trials = instrumentTrials(bundle, arm, k);
      rows.push(...powerAt(k, { bundle, sim, trials, models, judge }, options));
      say(
        `${k} iterations: ${options.replications} simulated studies of ${trials.length} trials × ${models.length} models`,
      );
    }
    return {
      bundle: { digest: bundle.digest, arm, generated: tmp !== null },
      alpha: options.alpha,
      models: models.map((m) => ({ name: m.name, origin: m.origin })),
      judge: judge ? { name: judge.name, accuracy: judge.accuracy } : null,
      rows,
    };
  } finally {
    if (tmp) await rm(tmp, { recursive: true, force: true });
  }
}

/** The models file's sim respondents that answer instrument trials, and its sim judge if any. */
function simRespondents(
  file: ModelsFile,
  modelsPath: string,
): { models: SimModel[]; judge: SimJudge | null } {
  // Respondents that answer instrument trials: provider sim, not a judge, and `paradigms` (when given) including instrument.
  const sims = file.models.filter(
    (m) =>
      m.provider === 'sim' &&
      m.role !== 'judge' &&
      (!m.paradigms || m.paradigms.includes('instrument')),
  );
  if (sims.length === 0) {
    throw StimkitError.fromProblem({
      code: 'E_POWER_NO_SIM',
      file: modelsPath,
      message: 'the models file has no provider: sim respondent that answers instrument trials',
      fix: 'add models with provider: sim and a sim: block (docs/simulated-respondents.md)',
    });
  }
  const models: SimModel[] = sims.map((m) => ({
    name: m.name,
    origin: m.origin ?? null,
    params: m.sim!,
  }));
  const judgeModel = file.models.find((m) => m.provider === 'sim' && m.role === 'judge');
  const judge: SimJudge | null = judgeModel
    ? {
        name: judgeModel.name,
        seed: judgeModel.sim?.seed ?? 0,
        accuracy: judgeModel.sim?.judge?.instrument_accuracy ?? SIM_JUDGE_ACCURACY,
      }
    : null;
  return { models, judge };
}

/**
 * The arm to simulate (`wanted`, else the instrument arm with the most trials); it must exist
 * and have at least `maxIterations` iterations.
 */
function chooseArm(
  bundle: ScoreBundle,
  bundleDir: string,
  wanted: string | undefined,
  maxIterations: number,
): string {
  const armCounts = new Map<string, number>();
  for (const t of bundle.trials)
    if (t.paradigm === 'instrument' && t.arm) armCounts.set(t.arm, (armCounts.get(t.arm) ?? 0) + 1);
  const arm = wanted ?? [...armCounts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))[0]?.[0];
  if (!arm || !armCounts.has(arm)) {
    throw StimkitError.fromProblem({
      code: 'E_POWER_BUNDLE',
      file: bundleDir,
      message: arm
        ? `the bundle has no instrument arm "${arm}"`
        : 'the bundle has no instrument trials',
      fix: 'pass a bundle whose study has an instrument arm',
    });
  }
  const have = Math.max(
    ...bundle.trials.filter((t) => t.arm === arm).map((t) => (t.iteration ?? 0) + 1),
  );
  if (maxIterations > have) {
    throw StimkitError.fromProblem({
      code: 'E_POWER_BUNDLE',
      file: bundleDir,
      field: 'iterations',
      message: `the bundle's arm "${arm}" has ${have} iterations`,
      expected: `at least ${maxIterations}`,
      got: String(have),
      fix: 'lower --iterations or bundle a study with more iterations',
    });
  }
  return arm;
}
