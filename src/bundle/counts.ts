/**
 * Counting a plan: trials by block × language (a trial plan is the same for every model), the
 * requests it means for each block's model set, and the study's expected counts checked.
 */
import { StimkitError, type Problem } from '../core/errors.js';
import { blockModelSet, blockNames, type LoadedStudy } from '../study/load.js';
import type { Counts } from './format.js';
import type { VlmParadigm } from '../study/schema.js';

/** Where `lang` stands in the languages a block declares (the study's order), for count tables. */
function langRank(study: LoadedStudy['study'], block: string, lang: string): number {
  const arm = /^(?:instrument|pressure)\/(.+)$/.exec(block)?.[1];
  const langs = arm
    ? (study.instrument?.arms.find((a) => a.id === arm)?.languages ?? [])
    : (study.paradigms[block as VlmParadigm]?.languages ?? study.languages);
  const i = langs.indexOf(lang);
  return i === -1 ? langs.length : i;
}

/** Count the plan's trials and check the study's expectations; languages in the study's order. */
export function countPlan(
  loaded: LoadedStudy,
  trials: Array<{ block: string; lang: string }>,
): Counts {
  const { study } = loaded;
  const cell = new Map<string, number>();
  const block = new Map<string, number>();
  for (const t of trials) {
    cell.set(`${t.block}\t${t.lang}`, (cell.get(`${t.block}\t${t.lang}`) ?? 0) + 1);
    block.set(t.block, (block.get(t.block) ?? 0) + 1);
  }
  const names = blockNames(study);
  const byBlock = [...cell.entries()]
    .map(([k, n]) => {
      const [b, lang] = k.split('\t') as [string, string];
      return { block: b, lang, trials: n };
    })
    .sort(
      (a, b) =>
        names.indexOf(a.block) - names.indexOf(b.block) ||
        langRank(study, a.block, a.lang) - langRank(study, b.block, b.lang) ||
        (a.lang < b.lang ? -1 : a.lang > b.lang ? 1 : 0),
    );
  const blocks = names.map((b) => {
    const set = blockModelSet(study, b) ?? null;
    const modelCount = set ? (study.models[set]?.length ?? null) : null;
    const n = block.get(b) ?? 0;
    return {
      block: b,
      trials: n,
      models: set,
      model_count: modelCount,
      planned_requests: modelCount === null ? null : n * modelCount,
    };
  });
  const expectations = study.expect.map((e) => {
    const langs = e.languages ?? null;
    const perModel = byBlock
      .filter((c) => e.blocks.includes(c.block) && (!langs || langs.includes(c.lang)))
      .reduce((s, c) => s + c.trials, 0);
    let total: { expected: number; got: number | null } | null = null;
    if (e.total !== undefined) {
      const set = blockModelSet(study, e.blocks[0]!);
      const count = set ? study.models[set]?.length : undefined;
      total = { expected: e.total, got: count === undefined ? null : perModel * count };
    }
    return {
      label: e.label,
      blocks: e.blocks,
      languages: langs,
      per_model: { expected: e.per_model, got: perModel },
      total,
      ok: perModel === e.per_model && (total === null || total.got === total.expected),
    };
  });
  return { trials: trials.length, by_block: byBlock, blocks, expectations };
}

/** Throw a StimkitError (exit 1) naming each expectation the plan does not meet. */
export function assertExpectations(loaded: LoadedStudy, counts: Counts): void {
  const problems: Problem[] = counts.expectations
    .filter((e) => !e.ok)
    .map((e) => {
      const i = counts.expectations.indexOf(e);
      const perModelOk = e.per_model.expected === e.per_model.got;
      return {
        code: 'E_BUNDLE_COUNT_MISMATCH',
        severity: 'error' as const,
        file: loaded.file,
        field: perModelOk ? `expect[${i}].total` : `expect[${i}].per_model`,
        message: `the plan does not come out at the expected count for "${e.label}" (${e.blocks.join(' + ')})`,
        expected: perModelOk ? String(e.total?.expected) : String(e.per_model.expected),
        got: perModelOk ? String(e.total?.got) : String(e.per_model.got),
        fix: 'check the entries selected by each paradigm (roles), the languages, seeds, variants and iterations; or correct the expectation',
      };
    });
  if (problems.length > 0) {
    throw new StimkitError(
      'E_BUNDLE_COUNT_MISMATCH',
      `${loaded.file}: ${problems.length} expected count(s) not met`,
      {
        fix: 'correct the study design or its inputs so the counts match, or update the expected counts in the study',
        problems,
      },
    );
  }
}
