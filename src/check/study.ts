/**
 * `stimkit check` of a study: everything `stimkit bundle --dry-run` checks (the study, its prompt
 * cards, topics and wrapper pools through their `extends` chains, the entries manifest, language
 * coverage, the plan and its expected counts), without ingest, variants or writing.
 */
import { bundleStudy } from '../bundle/bundle.js';
import type { CheckSummary } from './registry.js';

/** Check a study file. Throws a StimkitError listing every problem. */
export async function checkStudyFile(file: string): Promise<CheckSummary> {
  const r = await bundleStudy(file, { dryRun: true });
  return {
    study: r.study.id,
    trials: r.trials,
    expectations: r.counts.expectations.map((e) => `${e.label}: ${e.per_model.got}`),
    warnings: r.warnings.map((w) => ({
      code: w.code,
      severity: 'warning' as const,
      file,
      message: w.message,
    })),
  };
}
