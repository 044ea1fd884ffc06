/**
 * `stimkit label sample`: draw the stratified validation sample from a bundle and its responses
 * and write it as a `stimkit.label-sample` file (docs/formats/label-sample.md).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { StimkitError, type Problem } from '../core/errors.js';
import { relPosix, sha256, writeFileAtomic } from '../core/fsio.js';
import { artifactJson } from '../core/json.js';
import { TOOL } from '../core/tool.js';
import { loadBundle, promptText, type BundleData } from './bundle.js';
import { readResponsesJsonl, readResponsesLedger, type ResponseRow } from './responses.js';
import {
  LABEL_SAMPLE_FORMAT,
  LABEL_SAMPLE_VERSION,
  type LabelSample,
  type SampleItem,
  type Stratum,
} from './sample-schema.js';
import { sampleForValidation, type SampleRow } from './sampler.js';

/** The paper's stratification: all models, both languages, every paradigm, both sensitivity tiers. */
export const DEFAULT_STRATA: Stratum[] = ['model', 'lang', 'paradigm', 'sensitivity'];

export interface MakeSampleOptions {
  bundle: string;
  /** Responses JSONL; or give `ledger`. */
  responses?: string;
  /** A run ledger (`stimkit run --ledger`), instead of `responses`. */
  ledger?: string;
  /** The ledger's run label (default: its latest run). */
  run?: string;
  out: string;
  n: number;
  seed: number;
  strata?: Stratum[];
  /** Paradigms to draw from; default every paradigm with an image or an entry (not the instrument). */
  paradigms?: string[];
}

export interface MakeSampleResult {
  out: string;
  sample: LabelSample;
  /** Response lines without text (failed requests), skipped. */
  withoutText: number;
  /** Responses to trials outside the chosen paradigms, skipped. */
  otherParadigms: number;
}

/** The sample item id of a trial × model. */
export function sampleItemId(trialId: string, model: string): string {
  return `i_${createHash('sha256').update(`${trialId}\n${model}`).digest('hex').slice(0, 16)}`;
}

/** What `buildLabelSample` needs besides the bundle and the rows. */
interface BuildSampleOptions {
  n: number;
  seed: number;
  strata?: Stratum[];
  paradigms?: string[];
  /** Where the rows came from, as recorded in `inputs.responses` (file relative to the sample's folder). */
  source: { kind: 'jsonl' | 'ledger'; file: string; sha256: string };
  /** The bundle folder relative to the sample's folder, as recorded in `bundle.path`. */
  bundlePath: string;
  /** How many input lines had no response text (named in the error when nothing can be sampled). */
  withoutText?: number;
}

type JoinedRow = SampleRow & { response: string; simulated: boolean };

/**
 * Join each response to its trial in the bundle, keeping those in `paradigms`; responses to trials
 * the bundle lacks become problems (the first 20).
 */
function joinTrials(
  bundle: BundleData,
  rows: ResponseRow[],
  paradigms: string[],
  source: string,
): { joined: JoinedRow[]; problems: Problem[]; otherParadigms: number } {
  const problems: Problem[] = [];
  const joined: JoinedRow[] = [];
  let otherParadigms = 0;
  for (const r of rows) {
    const t = bundle.trialById.get(r.trial_id);
    if (!t) {
      if (problems.length < 20) {
        problems.push({
          code: 'E_LABEL_UNKNOWN_TRIAL',
          severity: 'error',
          file: source,
          field: 'trial_id',
          message: `trial ${r.trial_id} (model ${r.model}) is not in the bundle`,
          fix: 'give the bundle these responses were run on (--bundle)',
        });
      }
      continue;
    }
    if (!paradigms.includes(t.paradigm)) {
      otherParadigms += 1;
      continue;
    }
    const entry = t.entry ? bundle.entries.get(t.entry) : undefined;
    joined.push({
      ...r,
      lang: t.lang,
      paradigm: t.paradigm,
      variant: t.variant,
      entry: t.entry,
      sensitivity: entry?.sensitivity ?? null,
    });
  }
  return { joined, problems, otherParadigms };
}

/** The drawn rows as sample items, with their trials' images and prompt. */
function sampleItems(bundle: BundleData, drawn: JoinedRow[]): SampleItem[] {
  return drawn.map((r) => {
    const t = bundle.trialById.get(r.trial_id)!;
    return {
      id: sampleItemId(r.trial_id, r.model),
      trial_id: r.trial_id,
      model: r.model,
      paradigm: r.paradigm,
      lang: r.lang,
      entry: r.entry ?? null,
      sensitivity: r.sensitivity ?? null,
      variant: r.variant ?? null,
      images: [...t.images],
      prompt: promptText(t),
      response: r.response,
      simulated: r.simulated,
    };
  });
}

/**
 * Draw the sample from responses already in memory (no file is read or written): join them to
 * the bundle's trials, stratify, and return the `stimkit.label-sample` value.
 *
 * @example
 * const bundle = await loadBundle('bundles/paper');
 * const { sample } = buildLabelSample(bundle, rows, { n: 200, seed: 42, source: { kind: 'jsonl', file: 'r.jsonl', sha256 }, bundlePath: '../bundles/paper' });
 */
function buildLabelSample(
  bundle: BundleData,
  rows: ResponseRow[],
  options: BuildSampleOptions,
): { sample: LabelSample; otherParadigms: number } {
  const source = options.source.file;
  const strata = options.strata ?? DEFAULT_STRATA;
  const paradigms = options.paradigms ?? [
    ...new Set(bundle.trials.filter((t) => t.entry !== null).map((t) => t.paradigm)),
  ];
  const { joined, problems, otherParadigms } = joinTrials(bundle, rows, paradigms, source);
  if (problems.length > 0)
    throw new StimkitError(
      'E_LABEL_UNKNOWN_TRIAL',
      `${source}: responses to trials the bundle does not hold`,
      {
        fix: 'give the responses of this bundle, or the bundle these responses were run against',
        problems,
      },
    );
  if (joined.length === 0) {
    throw StimkitError.fromProblem({
      code: 'E_LABEL_NOTHING_TO_SAMPLE',
      file: source,
      message: `no response with text in the paradigms ${paradigms.join(', ') || '(none)'} (${rows.length} with text, ${otherParadigms} of them in other paradigms; ${options.withoutText ?? 0} without text)`,
      fix:
        rows.length === 0
          ? 'no line had response text: each line needs "response" (or run export\'s "response_text") holding the text; null means a failed request'
          : "check --paradigms and that the responses hold this bundle's VLM trials (a run of the instrument only has nothing to label)",
    });
  }
  const drawn = sampleForValidation(joined, { n: options.n, strata, seed: options.seed });
  const items = sampleItems(bundle, drawn.rows);
  const sample: LabelSample = {
    format: LABEL_SAMPLE_FORMAT,
    version: LABEL_SAMPLE_VERSION,
    tool: `${TOOL.name} ${TOOL.version}`,
    bundle: { path: options.bundlePath, digest: bundle.digest },
    inputs: { responses: options.source },
    params: {
      n: options.n,
      seed: options.seed,
      strata,
      paradigms: [...paradigms].sort(),
      method:
        'stratified: one per cell (or every level covered when n < cells), the rest proportional to cell size; seeded sha256 order',
    },
    population: joined.length,
    strata: drawn.cells,
    items,
  };
  return { sample, otherParadigms };
}

/** Build the sample from the bundle and the responses file (or ledger), and write it to `out` (atomically). */
export async function makeLabelSample(options: MakeSampleOptions): Promise<MakeSampleResult> {
  const bundle = await loadBundle(options.bundle);
  const source = options.ledger ?? options.responses;
  if (!source)
    throw StimkitError.usage(
      'E_USAGE',
      'label sample needs --responses FILE.jsonl or --ledger FILE',
      'add --ledger FILE (from `stimkit run`) or --responses FILE.jsonl',
    );
  const { rows, withoutText, text } = options.ledger
    ? readResponsesLedger(options.ledger, bundle.digest, options.run)
    : await readResponsesJsonl(source);
  const out = path.resolve(options.out);
  const { sample, otherParadigms } = buildLabelSample(bundle, rows, {
    n: options.n,
    seed: options.seed,
    strata: options.strata,
    paradigms: options.paradigms,
    source: {
      kind: options.ledger ? 'ledger' : 'jsonl',
      file: relPosix(path.dirname(out), path.resolve(source)),
      sha256: sha256(text),
    },
    bundlePath: relPosix(path.dirname(out), bundle.dir),
    withoutText,
  });
  await writeFileAtomic(out, artifactJson(sample));
  return { out, sample, withoutText, otherParadigms };
}
