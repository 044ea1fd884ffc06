/**
 * `stimkit bundle`: read a study, reuse or run ingest and variants, expand the complete trial plan,
 * check its counts, and seal it as a BagIt 1.0 bag whose digest (the sha256 of
 * `manifest-sha256.txt`) is the study's pre-registration identifier.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256, sha256File } from '../core/fsio.js';
import { TOOL } from '../core/tool.js';
import { loadStudy } from '../study/load.js';
import type { Progress } from '../variants/progress.js';
import { resolveCorpus } from './corpus-source.js';
import { checkLanguageCoverage } from './coverage.js';
import { StimkitError } from '../core/errors.js';
import { assertExpectations, countPlan } from './counts.js';
import { BUNDLE_FORMAT, BUNDLE_VERSION, type Counts } from './format.js';
import { draftWarnings, type PlanWarning } from './drafts.js';
import { languageWarnings } from '../languages/warnings.js';
import { buildPayload } from './payload.js';
import { expandPlan, type PlannedTrial } from './plan.js';
import { loadStimuli } from './stimuli-source.js';
import { resolveVariantImages } from './variants-source.js';
import { checkOutFolder, writeBag } from './write-bag.js';
import { refuseWarned, shownWarnings } from './variant-warnings.js';
import { loadRubric, rubricPayload } from '../study/rubric.js';
import { loadStudyPacks, type StudyPack } from './study-packs.js';

/** The payload of the study's rubric: schema-checked, with the sha256 of the file's bytes. */
async function sealedRubric(studyDir: string, file: string): Promise<unknown> {
  const abs = path.resolve(studyDir, file);
  const { rubric } = await loadRubric(abs);
  return rubricPayload(rubric, file, sha256(await readFile(abs)));
}

/** Options of `bundleStudy`. */
export interface BundleOptions {
  /**
   * Bag folder to write (required unless `dryRun`): new, empty, or a bag stimkit wrote holding
   * nothing else (replaced). Anything else is refused (E_BUNDLE_OUT_NOT_A_BAG) before any work.
   */
  out?: string;
  /** Expand and count the plan without ingest, variants or writing. */
  dryRun?: boolean;
  /** Folder for corpus and variants locks that must be (re)made, instead of the study's own paths. */
  work?: string;
  /** Parallel jobs for ingest, variants and hashing. */
  jobs?: number;
  /** Progress of a variants run, when one is needed. */
  progress?: Progress;
  /** One line per step that does real work (ingest or variants rebuilt). */
  log?: (line: string) => void;
  /** Refuse to seal a plan showing variants with quality warnings (E_BUNDLE_QUALITY). */
  strict?: boolean;
  /** The A6 method, instead of the study's `variants.silhouette` (the demo's grabcut fallback). */
  silhouette?: 'isnet' | 'grabcut';
}

/** What `bundleStudy` did. */
export interface BundleResult {
  study: { id: string; title: string; file: string };
  dryRun: boolean;
  out: string | null;
  /** The bundle digest (null in a dry run). */
  digest: string | null;
  trials: number;
  images: number;
  counts: Counts;
  payload: { files: number; octets: number } | null;
  reused: { corpus: boolean | null; variants: boolean | null };
  /** Texts the plan uses that are unreviewed drafts (the bag is sealed all the same). */
  warnings: PlanWarning[];
  /** The plan itself (for callers and tests; not printed). */
  plan: PlannedTrial[];
}

/**
 * Bundle a study. Throws a StimkitError (exit 1) for an invalid study, a plan that does not come
 * out at the study's expected counts, or inputs that cannot be locked.
 *
 * @example
 * const r = await bundleStudy('manifests/demo.study.yaml', { out: 'bundles/demo' });
 * console.log(r.digest); // cite this
 */
export async function bundleStudy(
  studyFile: string,
  options: BundleOptions = {},
): Promise<BundleResult> {
  const dryRun = Boolean(options.dryRun);
  if (!dryRun && !options.out)
    throw new Error('bundleStudy: options.out is required unless dryRun');
  // Refuse an --out that is not ours before any ingest or variants work (writeBag checks again).
  if (!dryRun) await checkOutFolder(path.resolve(options.out!));
  const planned = await planStudy(studyFile, options, dryRun);
  const { loaded, plan, counts } = planned;
  const base = {
    study: { id: loaded.study.id, title: loaded.study.title, file: studyFile },
    dryRun,
    trials: plan.length,
    counts,
    warnings: [...draftWarnings(plan, planned.stimuli), ...languageWarnings(plan, planned.packs)],
    plan,
  };
  if (dryRun) {
    const images = new Set(
      plan.flatMap((t) => (t.image ? [`${t.image.entry}/${t.image.variant}`] : [])),
    ).size;
    return {
      ...base,
      out: null,
      digest: null,
      images,
      payload: null,
      reused: { corpus: null, variants: null },
    };
  }
  return sealBundle(planned, options, base);
}

/** What a study plans to: the study, its stimuli and corpus, the trial plan and its counts. */
interface StudyPlan {
  loaded: Awaited<ReturnType<typeof loadStudy>>;
  stimuli: Awaited<ReturnType<typeof loadStimuli>>;
  corpus: Awaited<ReturnType<typeof resolveCorpus>>;
  plan: PlannedTrial[];
  counts: Counts;
  /** The study's own language packs (`language_packs`), sealed in the bag. */
  packs: StudyPack[];
}

/** Load the study, its stimuli and corpus, and expand the plan at the study's expected counts. */
async function planStudy(
  studyFile: string,
  options: BundleOptions,
  dryRun: boolean,
): Promise<StudyPlan> {
  const loaded = await loadStudy(studyFile);
  const packs = loadStudyPacks(loaded);
  // Stimuli first: a language they lack is reported before any ingest work.
  const stimuli = await loadStimuli(loaded);
  const corpus = await resolveCorpus(loaded, {
    dryRun,
    work: options.work,
    jobs: options.jobs,
    log: options.log,
  });
  if (corpus) {
    const gaps = checkLanguageCoverage(loaded, corpus.entries, corpus.manifestFile);
    if (gaps.length > 0)
      throw new StimkitError(
        'E_BUNDLE_LANGUAGE_COVERAGE',
        `${studyFile}: ${gaps.length} entry/language pair(s) lack the texts the study's languages need`,
        {
          fix: 'add the missing texts to the stimuli files, or drop those languages from the study',
          problems: gaps,
        },
      );
  }
  const plan = expandPlan(loaded, {
    entries: corpus?.entries,
    prompts: stimuli.prompts?.source,
    instrument: stimuli.instrument?.source,
    pressure: stimuli.pressure,
  });
  const counts = countPlan(loaded, plan);
  assertExpectations(loaded, counts);
  return { loaded, stimuli, corpus, plan, counts, packs };
}

/** Make the images the plan shows, build the payload and write the sealed bag. */
async function sealBundle(
  { loaded, stimuli, corpus, plan, counts, packs }: StudyPlan,
  options: BundleOptions,
  base: Omit<BundleResult, 'out' | 'digest' | 'images' | 'payload' | 'reused'>,
): Promise<BundleResult> {
  const variants =
    corpus?.lock && corpus.lockFile
      ? await resolveVariantImages(loaded, corpus.lockFile, plan, corpus.lock.entries, {
          work: options.work,
          jobs: options.jobs,
          progress: options.progress,
          log: options.log,
          silhouette: options.silhouette,
        })
      : null;
  const shown = shownWarnings(plan, variants);
  if (options.strict) refuseWarned(shown);
  base.warnings.push(...shown);
  const payload = buildPayload({
    loaded,
    studySha256: sha256(await readFile(loaded.file)),
    corpus: corpus?.lock
      ? {
          entries: corpus.entries,
          corpus: corpus.lock.corpus,
          languages: corpus.lock.languages,
          manifestFile: corpus.manifestFile,
          manifestSha256: await sha256File(corpus.manifestFile),
        }
      : null,
    stimuli,
    variants,
    trials: plan,
    counts,
    packs,
    ...(loaded.study.rubric ? { rubric: await sealedRubric(loaded.dir, loaded.study.rubric) } : {}),
  });
  const bag = await writeBag(
    options.out!,
    payload.files,
    [
      ['Bag-Software-Agent', `${TOOL.name} ${TOOL.version}`],
      ['External-Identifier', `stimkit-study:${loaded.study.id}`],
      ['External-Description', loaded.study.title],
      ['Stimkit-Bundle-Format', `${BUNDLE_FORMAT} ${BUNDLE_VERSION}`],
      ['Stimkit-Trials', String(payload.trials)],
      ['Stimkit-Images', String(payload.images)],
    ],
    { concurrency: options.jobs },
  );
  return {
    ...base,
    out: bag.dir,
    digest: bag.digest,
    images: payload.images,
    payload: { files: bag.files, octets: bag.octets },
    reused: { corpus: corpus?.reused ?? null, variants: variants?.reused ?? null },
  };
}
