/**
 * Reading a study file: the schema check, then the checks a schema cannot express (references
 * between sections, duplicates, what each paradigm needs), every problem at once with its line.
 */
import path from 'node:path';
import { formatPath, lineOf, loadDataFile, type ParsedDataFile } from '../core/datafile.js';
import { StimkitError, type Problem } from '../core/errors.js';
import { isShippedRef, resolveRef, SHIPPED_PREFIX, shippedFile } from '../core/shipped.js';
import { checkStudy } from './check.js';
import { Study, VLM_PARADIGMS, type ParadigmBlock, type VlmParadigm } from './schema.js';

// The block helpers live with the checks that use them; the plan's counts read them from here.
export { blockModelSet, blockNames } from './check.js';

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

/** The study's references to input files, each with its place in the file. */
function fileRefs(study: Study): Array<[PropertyKey[], string | undefined]> {
  return [
    [['corpus', 'entries'], study.corpus?.entries],
    [['instrument', 'topics'], study.instrument?.topics],
    [['instrument', 'wrappers'], study.instrument?.wrappers],
    [['prompts'], study.prompts],
    [['rubric'], study.rubric],
    [['variants', 'recipe'], study.variants?.recipe],
    ...(study.language_packs ?? []).map((f, i): [PropertyKey[], string] => [
      ['language_packs', i],
      f,
    ]),
  ];
}

/** A problem for each `stimkit:<name>` reference that names no shipped file. */
function shippedRefProblems(study: Study, parsed: ParsedDataFile): Problem[] {
  const problems: Problem[] = [];
  for (const [where, ref] of fileRefs(study)) {
    if (ref === undefined || !isShippedRef(ref)) continue;
    const field = formatPath(where);
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
