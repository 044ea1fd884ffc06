/**
 * Reading a study file: the schema check, then the checks a schema cannot express (references
 * between sections, duplicates, what each paradigm needs), every problem at once with its line.
 */
import path from 'node:path';
import { lineOf, loadDataFile, type ParsedDataFile } from '../core/datafile.js';
import { StimkitError, type Problem } from '../core/errors.js';
import { isShippedRef, resolveRef, SHIPPED_PREFIX, shippedFile } from '../core/shipped.js';
import {
  IMAGE_PARADIGMS,
  Study,
  VLM_PARADIGMS,
  type ParadigmBlock,
  type VlmParadigm,
} from './schema.js';

/** A loaded study: the data, where it came from, and helpers to resolve its file references. */
export interface LoadedStudy {
  study: Study;
  /** The study file as given. */
  file: string;
  /** Its folder, absolute. */
  dir: string;
  /** Its raw bytes' text (for hashing). */
  text: string;
  /** The parsed file, for the line of a field (`lineOf`) in later checks. */
  parsed: ParsedDataFile;
  /** The VLM paradigm blocks present, in plan order. */
  paradigms: Array<[VlmParadigm, ParadigmBlock]>;
  /** Absolute path of a file reference: study-relative, or `stimkit:<name>` for a shipped file. */
  resolve: (ref: string) => string;
}

/** Block names a study defines: each present paradigm and `instrument/<arm>`. */
export function blockNames(study: Study): string[] {
  const names: string[] = VLM_PARADIGMS.filter((p) => study.paradigms[p] !== undefined);
  for (const arm of study.instrument?.arms ?? []) names.push(`instrument/${arm.id}`);
  return names;
}

/** The model set name a block uses (its own, else the study default), or undefined. */
export function blockModelSet(study: Study, block: string): string | undefined {
  if (block.startsWith('instrument/')) {
    const arm = study.instrument?.arms.find((a) => `instrument/${a.id}` === block);
    return arm?.models ?? study.instrument?.models ?? study.default_models;
  }
  return study.paradigms[block as VlmParadigm]?.models ?? study.default_models;
}

function duplicates<T>(values: T[]): T[] {
  const seen = new Set<T>();
  const dup = new Set<T>();
  for (const v of values) (seen.has(v) ? dup : seen).add(v);
  return [...dup];
}

/** Semantic checks of a schema-valid study. Pure. */
// eslint-disable-next-line max-lines-per-function -- not yet split by phase (see docs/DESIGN.md, layout)
function checkStudy(study: Study, parsed: ParsedDataFile): Problem[] {
  const problems: Problem[] = [];
  const file = parsed.file;
  const add = (where: PropertyKey[], p: Omit<Problem, 'severity' | 'file' | 'line' | 'field'>) =>
    problems.push({
      severity: 'error',
      file,
      line: lineOf(parsed, where),
      field: where
        .map((w, i) => (typeof w === 'number' ? `[${w}]` : i === 0 ? String(w) : `.${String(w)}`))
        .join(''),
      ...p,
    });
  const sets = Object.keys(study.models);
  const checkSet = (where: PropertyKey[], name: string | undefined) => {
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
  checkSet(['default_models'], study.default_models);
  for (const [key, list] of [
    ['languages', study.languages],
    ['seeds', study.seeds],
  ] as const) {
    const dup = duplicates<unknown>([...list]);
    if (dup.length)
      add([key], {
        code: 'E_STUDY_DUPLICATE',
        message: `${key} lists ${dup.join(', ')} more than once`,
        fix: 'list each once',
      });
  }
  const present = VLM_PARADIGMS.filter((p) => study.paradigms[p] !== undefined);
  if (present.length > 0) {
    if (!study.corpus) {
      add(['paradigms'], {
        code: 'E_STUDY_NO_CORPUS',
        message: 'the VLM paradigms need a corpus',
        fix: 'add corpus.entries: <entries manifest>',
      });
    }
    if (!study.prompts) {
      add(['paradigms'], {
        code: 'E_STUDY_NO_PROMPTS',
        message: 'the VLM paradigms need prompt cards',
        fix: 'add prompts: <prompts.yaml>',
      });
    }
  }
  const unsampled = present.filter((p) => !study.paradigms[p]!.sampling);
  if (!study.sampling && unsampled.length > 0) {
    add(['sampling'], {
      code: 'E_STUDY_NO_SAMPLING',
      message: `the VLM paradigm(s) ${unsampled.join(', ')} need sampling parameters`,
      expected: 'sampling: {temperature: …} at the top level (or in each paradigm)',
      got: 'no sampling',
      fix: "add sampling: {temperature: 0.7, top_p: 0.8, top_k: 20, max_tokens: 1024, thinking: false} (the audit paper's settings)",
    });
  }
  if (present.some((p) => IMAGE_PARADIGMS.has(p)) && !study.variants) {
    add(['paradigms'], {
      code: 'E_STUDY_NO_VARIANTS',
      message:
        'image paradigms show each entry as its A0 variant (decoded, oriented, sRGB, PNG), so they need a variants source',
      fix: 'add variants.lock: <path of the variants lock to reuse or write>',
    });
  }
  for (const p of present) {
    const block = study.paradigms[p]!;
    checkSet(['paradigms', p, 'models'], block.models);
    if (block.variants && p !== 'abstraction') {
      add(['paradigms', p, 'variants'], {
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
    ] as const) {
      const dup = duplicates<unknown>([...list]);
      if (dup.length)
        add(['paradigms', p, key], {
          code: 'E_STUDY_DUPLICATE',
          message: `lists ${dup.join(', ')} more than once`,
          fix: 'list each once',
        });
    }
    if (p === 'comment-text' && !block.entries.roles.includes('anchor')) {
      add(['paradigms', p, 'entries', 'roles'], {
        code: 'E_STUDY_COMMENT_TEXT_ROLE',
        message: 'comment-text names the subject by its anchor name, so it selects anchor entries',
        expected: 'roles including anchor',
        got: JSON.stringify(block.entries.roles),
        fix: 'use roles: [anchor]',
      });
    }
  }
  if (study.instrument) {
    const ins = study.instrument;
    checkSet(['instrument', 'models'], ins.models);
    ins.arms.forEach((a, i) => {
      checkSet(['instrument', 'arms', i, 'models'], a.models);
      const dup = duplicates(a.languages);
      if (dup.length)
        add(['instrument', 'arms', i, 'languages'], {
          code: 'E_STUDY_DUPLICATE',
          message: `lists ${dup.join(', ')} more than once`,
          fix: 'list each once',
        });
    });
    const dupArms = duplicates(ins.arms.map((a) => a.id));
    if (dupArms.length)
      add(['instrument', 'arms'], {
        code: 'E_STUDY_DUPLICATE',
        message: `arm id(s) ${dupArms.join(', ')} used twice`,
        fix: 'give each arm its own id',
      });
    const dupF = duplicates(ins.framings);
    if (dupF.length)
      add(['instrument', 'framings'], {
        code: 'E_STUDY_DUPLICATE',
        message: `lists ${dupF.join(', ')} more than once`,
        fix: 'list each once',
      });
  }
  const blocks = blockNames(study);
  study.expect.forEach((e, i) => {
    e.blocks.forEach((b, j) => {
      if (!blocks.includes(b)) {
        add(['expect', i, 'blocks', j], {
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
        add(['expect', i, 'total'], {
          code: 'E_STUDY_TOTAL_MODELS',
          message: 'a total needs all its blocks to share one declared model set',
          got: [...used].map((s) => s ?? '(none)').join(', '),
          fix: 'set models on the blocks (or default_models), or drop total',
        });
      }
    }
  });
  return problems;
}

/** The study's references to input files, each with its place in the file. */
function fileRefs(study: Study): Array<[PropertyKey[], string | undefined]> {
  return [
    [['corpus', 'entries'], study.corpus?.entries],
    [['instrument', 'topics'], study.instrument?.topics],
    [['instrument', 'wrappers'], study.instrument?.wrappers],
    [['prompts'], study.prompts],
    [['rubric'], study.rubric],
    [['variants', 'recipe'], study.variants?.recipe],
  ];
}

/** A problem for each `stimkit:<name>` reference that names no shipped file. */
function shippedRefProblems(study: Study, parsed: ParsedDataFile): Problem[] {
  const problems: Problem[] = [];
  for (const [where, ref] of fileRefs(study)) {
    if (ref === undefined || !isShippedRef(ref)) continue;
    const field = where.join('.');
    try {
      shippedFile(ref.slice(SHIPPED_PREFIX.length), { code: 'E_STUDY_SHIPPED', field });
    } catch (err) {
      const p = (err as StimkitError).problems[0]!;
      problems.push({ ...p, file: parsed.file, line: lineOf(parsed, where) });
    }
  }
  return problems;
}

/** Read and check a study file; throws a StimkitError listing every problem. */
export async function loadStudy(file: string): Promise<LoadedStudy> {
  const { data: study, parsed } = await loadDataFile(file, Study, 'E_STUDY_SCHEMA');
  const problems = [...checkStudy(study, parsed), ...shippedRefProblems(study, parsed)];
  if (problems.length > 0) {
    throw new StimkitError(
      'E_STUDY_INVALID',
      `${file}: ${problems.length} problem(s) in the study design`,
      { fix: 'correct the study design as each problem below says', problems },
    );
  }
  const dir = path.dirname(path.resolve(file));
  return {
    study,
    file,
    dir,
    text: parsed.text,
    parsed,
    paradigms: VLM_PARADIGMS.filter((p) => study.paradigms[p] !== undefined).map(
      (p) => [p, study.paradigms[p]!] as [VlmParadigm, ParadigmBlock],
    ),
    resolve: (ref) => resolveRef(ref, dir, { code: 'E_STUDY_SHIPPED', file }),
  };
}
