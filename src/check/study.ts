/**
 * `stimkit check` of a study: everything `stimkit bundle --dry-run` checks (the study, its prompt
 * cards, topics and wrapper pools through their `extends` chains, the entries manifest, language
 * coverage, the plan and its expected counts), without ingest, variants or writing; and a note
 * for each arm language some topic the study does not use lacks (a language file may cover only
 * the topics a study uses), and for each study language no installed font covers.
 */
import { bundleStudy } from '../bundle/bundle.js';
import type { Problem } from '../core/errors.js';
import { fontWarnings } from '../languages/font-preflight.js';
import { loadTopics, missingItems } from '../stimuli/topics.js';
import { loadStudy } from '../study/load.js';
import type { CheckSummary } from './registry.js';

/** W_TOPICS_UNUSED_LANGUAGE for each arm language the topics the study does not use lack. */
async function unusedUncovered(file: string): Promise<Problem[]> {
  const loaded = await loadStudy(file);
  const ins = loaded.study.instrument;
  if (!ins) return [];
  const topics = await loadTopics(loaded.resolve(ins.topics));
  const langs = new Set(ins.arms.flatMap((a) => a.languages));
  const used = new Set(ins.topic_ids ?? topics.topics.map((t) => t.id));
  return Object.entries(missingItems(topics))
    .filter(([lang]) => langs.has(lang))
    .map(([lang, ids]) => ({
      code: 'W_TOPICS_UNUSED_LANGUAGE',
      severity: 'warning' as const,
      file,
      field: 'instrument.topic_ids',
      message: `topic(s) ${ids.filter((id) => !used.has(id)).join(', ')} have no ${lang} item in ${ins.topics}; the study does not use them`,
    }));
}

/** Check a study file. Throws a StimkitError listing every problem. */
export async function checkStudyFile(file: string): Promise<CheckSummary> {
  const r = await bundleStudy(file, { dryRun: true });
  return {
    study: r.study.id,
    trials: r.trials,
    expectations: r.counts.expectations.map((e) => `${e.label}: ${e.per_model.got}`),
    warnings: [
      ...r.warnings.map((w) => ({
        code: w.code,
        severity: 'warning' as const,
        file,
        message: w.message,
      })),
      ...(await unusedUncovered(file)),
      ...(await fontWarnings(
        r.plan.map((t) => t.lang),
        file,
      )),
    ],
  };
}
