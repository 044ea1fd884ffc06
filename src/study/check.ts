/**
 * The checks of a schema-valid study that a schema cannot express: model sets that exist, lists
 * without repeats, what the VLM paradigms need, the instrument's arms, the expectations' blocks.
 * Every problem at once, in check order, with its line.
 */
import { lineOf, type ParsedDataFile } from '../core/datafile.js';
import type { Problem } from '../core/errors.js';
import {
  IMAGE_PARADIGMS,
  VLM_PARADIGMS,
  type ParadigmBlock,
  type Study,
  type VlmParadigm,
} from './schema.js';

/** Block names a study defines: each present paradigm, `instrument/<arm>` and `pressure/<arm>`. */
export function blockNames(study: Study): string[] {
  const names: string[] = VLM_PARADIGMS.filter((p) => study.paradigms[p] !== undefined);
  for (const arm of study.instrument?.arms ?? []) names.push(`instrument/${arm.id}`);
  const p = study.pressure;
  for (const arm of study.instrument?.arms ?? [])
    if (p && (!p.arms || p.arms.includes(arm.id))) names.push(`pressure/${arm.id}`);
  return names;
}

/** The model set name a block uses (its own, else the study default), or undefined. */
export function blockModelSet(study: Study, block: string): string | undefined {
  if (block.startsWith('pressure/'))
    return study.pressure?.models ?? blockModelSet(study, `instrument/${block.slice(9)}`);
  if (block.startsWith('instrument/')) {
    const arm = study.instrument?.arms.find((a) => `instrument/${a.id}` === block);
    return arm?.models ?? study.instrument?.models ?? study.default_models;
  }
  return study.paradigms[block as VlmParadigm]?.models ?? study.default_models;
}

/** The values that occur more than once, each once, in order of first repeat. */
function duplicates<T>(values: T[]): T[] {
  const seen = new Set<T>();
  const dup = new Set<T>();
  for (const v of values) (seen.has(v) ? dup : seen).add(v);
  return [...dup];
}

/** Adds a problem at a field path of the study file; checks that a model set name is declared. */
interface Reporter {
  add: (where: PropertyKey[], p: Omit<Problem, 'severity' | 'file' | 'line' | 'field'>) => void;
  checkSet: (where: PropertyKey[], name: string | undefined) => void;
}

/** A reporter pushing onto `problems`, each with the line and field of its path in the file. */
function reporter(study: Study, parsed: ParsedDataFile, problems: Problem[]): Reporter {
  const add: Reporter['add'] = (where, p) =>
    problems.push({
      severity: 'error',
      file: parsed.file,
      line: lineOf(parsed, where),
      field: where
        .map((w, i) => (typeof w === 'number' ? `[${w}]` : i === 0 ? String(w) : `.${String(w)}`))
        .join(''),
      ...p,
    });
  const sets = Object.keys(study.models);
  const checkSet: Reporter['checkSet'] = (where, name) => {
    if (name !== undefined && !study.models[name]) {
      add(where, {
        code: 'E_STUDY_UNKNOWN_MODEL_SET',
        message: `no model set "${name}" in models`,
        expected: sets.length ? `one of ${sets.join(', ')}` : 'a set declared under models',
        got: JSON.stringify(name),
        fix: `declare models.${name}: [model ids] or use a declared set`,
      });
    }
  };
  return { add, checkSet };
}

/** One E_STUDY_DUPLICATE at `where` naming the values `list` repeats ("<subject> x more than once"). */
function listedOnce(r: Reporter, where: PropertyKey[], list: readonly unknown[], subject: string) {
  const dup = duplicates([...list]);
  if (dup.length)
    r.add(where, {
      code: 'E_STUDY_DUPLICATE',
      message: `${subject} ${dup.join(', ')} more than once`,
      fix: 'list each once',
    });
}

/** The top level: the default model set is declared; languages and seeds are each listed once. */
function checkTopLevel(study: Study, r: Reporter): void {
  r.checkSet(['default_models'], study.default_models);
  listedOnce(r, ['languages'], study.languages, 'languages lists');
  listedOnce(r, ['seeds'], study.seeds, 'seeds lists');
}

/** What the present VLM paradigms need: a corpus, prompt cards, sampling, a variants source. */
function checkParadigmNeeds(study: Study, present: VlmParadigm[], r: Reporter): void {
  if (present.length > 0) {
    if (!study.corpus) {
      r.add(['paradigms'], {
        code: 'E_STUDY_NO_CORPUS',
        message: 'the VLM paradigms need a corpus',
        fix: 'add corpus.entries: <entries manifest>',
      });
    }
    if (!study.prompts) {
      r.add(['paradigms'], {
        code: 'E_STUDY_NO_PROMPTS',
        message: 'the VLM paradigms need prompt cards',
        fix: 'add prompts: <prompts.yaml>',
      });
    }
  }
  const unsampled = present.filter((p) => !study.paradigms[p]!.sampling);
  if (!study.sampling && unsampled.length > 0) {
    r.add(['sampling'], {
      code: 'E_STUDY_NO_SAMPLING',
      message: `the VLM paradigm(s) ${unsampled.join(', ')} need sampling parameters`,
      expected: 'sampling: {temperature: …} at the top level (or in each paradigm)',
      got: 'no sampling',
      fix: "add sampling: {temperature: 0.7, top_p: 0.8, top_k: 20, max_tokens: 1024, thinking: false} (the audit paper's settings)",
    });
  }
  if (present.some((p) => IMAGE_PARADIGMS.has(p)) && !study.variants) {
    r.add(['paradigms'], {
      code: 'E_STUDY_NO_VARIANTS',
      message:
        'image paradigms show each entry as its A0 variant (decoded, oriented, sRGB, PNG), so they need a variants source',
      fix: 'add variants.lock: <path of the variants lock to reuse or write>',
    });
  }
}

/** One paradigm block: its model set, variants only on abstraction, no repeats, anchor roles. */
function checkParadigm(p: VlmParadigm, block: ParadigmBlock, r: Reporter): void {
  r.checkSet(['paradigms', p, 'models'], block.models);
  if (block.variants && p !== 'abstraction') {
    r.add(['paradigms', p, 'variants'], {
      code: 'E_STUDY_VARIANTS_FIELD',
      message: 'only the abstraction paradigm takes a list of variants (the others show A0)',
      fix: `remove paradigms.${p}.variants`,
    });
  }
  for (const [key, list] of [
    ['languages', block.languages ?? []],
    ['seeds', block.seeds ?? []],
    ['variants', block.variants ?? []],
    ['entries', block.entries.ids ?? []],
  ] as const)
    listedOnce(r, ['paradigms', p, key], list, 'lists');
  if (p === 'comment-text' && !block.entries.roles.includes('anchor')) {
    r.add(['paradigms', p, 'entries', 'roles'], {
      code: 'E_STUDY_COMMENT_TEXT_ROLE',
      message: 'comment-text names the subject by its anchor name, so it selects anchor entries',
      expected: 'roles including anchor',
      got: JSON.stringify(block.entries.roles),
      fix: 'use roles: [anchor]',
    });
  }
}

/** The instrument: its and each arm's model set, arm languages, arm ids and framings once each. */
function checkInstrument(ins: NonNullable<Study['instrument']>, r: Reporter): void {
  r.checkSet(['instrument', 'models'], ins.models);
  ins.arms.forEach((a, i) => {
    r.checkSet(['instrument', 'arms', i, 'models'], a.models);
    listedOnce(r, ['instrument', 'arms', i, 'languages'], a.languages, 'lists');
  });
  const dupArms = duplicates(ins.arms.map((a) => a.id));
  if (dupArms.length)
    r.add(['instrument', 'arms'], {
      code: 'E_STUDY_DUPLICATE',
      message: `arm id(s) ${dupArms.join(', ')} used twice`,
      fix: 'give each arm its own id',
    });
  listedOnce(r, ['instrument', 'framings'], ins.framings, 'lists');
}

/** Each expectation: its blocks exist, and a total's blocks share one declared model set. */
function checkExpectations(study: Study, r: Reporter): void {
  const blocks = blockNames(study);
  study.expect.forEach((e, i) => {
    e.blocks.forEach((b, j) => {
      if (!blocks.includes(b)) {
        r.add(['expect', i, 'blocks', j], {
          code: 'E_STUDY_UNKNOWN_BLOCK',
          message: `no block "${b}" in this study`,
          expected: `one of ${blocks.join(', ') || '(none: add paradigms or instrument arms)'}`,
          got: JSON.stringify(b),
          fix: 'name a paradigm (describe, …) or an instrument arm as instrument/<arm id>',
        });
      }
    });
    if (e.total !== undefined) {
      const used = new Set(
        e.blocks.filter((b) => blocks.includes(b)).map((b) => blockModelSet(study, b)),
      );
      if (used.size !== 1 || used.has(undefined)) {
        r.add(['expect', i, 'total'], {
          code: 'E_STUDY_TOTAL_MODELS',
          message: 'a total needs all its blocks to share one declared model set',
          got: [...used].map((s) => s ?? '(none)').join(', '),
          fix: 'set models on the blocks (or default_models), or drop total',
        });
      }
    }
  });
}

/** Semantic checks of a schema-valid study: every problem, in check order. Pure. */
export function checkStudy(study: Study, parsed: ParsedDataFile): Problem[] {
  const problems: Problem[] = [];
  const r = reporter(study, parsed, problems);
  checkTopLevel(study, r);
  const present = VLM_PARADIGMS.filter((p) => study.paradigms[p] !== undefined);
  checkParadigmNeeds(study, present, r);
  for (const p of present) checkParadigm(p, study.paradigms[p]!, r);
  if (study.instrument) checkInstrument(study.instrument, r);
  checkExpectations(study, r);
  return problems;
}
