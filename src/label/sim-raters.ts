/**
 * Simulated human raters: a labels CSV (docs/formats/labels.md, the file `stimkit label export`
 * writes) for a validation sample, drawn from the simulator's recorded truth of each sampled
 * response. Each rater gives the true label of a dimension with a set accuracy and the opposite
 * label otherwise; draws are a function of (seed, rater, sample item, dimension), so the same
 * inputs give the same bytes. Exists so the offline demo (and anyone dry-running the validation
 * pipeline) can show the judges-against-human-labels tables; it says nothing about real raters.
 *
 * Marked simulated in the file: the rater names are the caller's (the demo uses `sim-rater-N`)
 * and every row's `note` starts with `SIMULATED_RATER_NOTE`, which `stimkit validate` records as
 * `simulated_raters` and the report's banner repeats.
 *
 * The true labels are the ones the simulated judge starts from (`trueLabels`), so a validation
 * against simulated raters recovers the sim judge's set sensitivity and specificity.
 */
import path from 'node:path';
import { csvText } from '../core/csv.js';
import { StimkitError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fsio.js';
import { trueLabels, uniform, type Dimension } from '../audit/sim-judge.js';
import { SIMULATED_RATER_NOTE } from '../audit/validate.js';
import { LABEL_COLUMNS } from './export.js';
import { readLabelSample } from './load-sample.js';
import { openLedger } from '../ledger/read.js';
import type { LabelSample } from './sample-schema.js';

/** One simulated rater. */
export interface SimRater {
  /** Rater name (letters, digits, `.`, `-`, `_`), e.g. `sim-rater-1`. */
  name: string;
  /** Probability of giving the true label on each dimension (0.5 … 1). */
  accuracy: number;
}

export interface SimRaterOptions {
  sample: LabelSample;
  /** sha256 of the sample file's bytes (the CSV's `sample_sha256`). */
  sampleSha256: string;
  /** The simulator's recorded truth of each sampled response, by `<trial_id>@<model>`. */
  truths: ReadonlyMap<string, Record<string, unknown> | null>;
  raters: readonly SimRater[];
  seed: number;
}

const DIMS: readonly Dimension[] = ['d1', 'd2', 'd3', 'd4', 'd5'];
/** The discourse strategy of a simulated reframing, as the labels CSV's DT columns. */
const DT_OF: Record<string, number> = { endorse: 0, substitute: 1, deflect: 2 };

/** The labels CSV (one row per item × rater, raters in name order, items in sample order). */
export function simulateRaterLabels(options: SimRaterOptions): { csv: string; rows: number } {
  const raters = [...options.raters].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  const bad = raters.find(
    (r) => !/^[A-Za-z0-9._-]+$/.test(r.name) || !(r.accuracy >= 0.5 && r.accuracy <= 1),
  );
  if (bad) {
    throw StimkitError.fromProblem({
      code: 'E_SIM_RATER',
      field: bad.name,
      message:
        'a simulated rater needs a name of letters, digits, ".", "-", "_" and an accuracy between 0.5 and 1',
      got: `${bad.name} ${bad.accuracy}`,
      fix: 'e.g. {name: "sim-rater-1", accuracy: 0.95}',
    });
  }
  const records: string[][] = [];
  for (const r of raters) {
    for (const item of options.sample.items) {
      const truth = options.truths.get(`${item.trial_id}@${item.model}`) ?? null;
      const t = trueLabels(truth, item.images.length > 0);
      if (!t) {
        throw StimkitError.fromProblem({
          code: 'E_SIM_RATER_TRUTH',
          field: `${item.trial_id}@${item.model}`,
          message:
            'simulated raters need the simulator\u2019s truth of every sampled response, and this one has none (not a simulated VLM response)',
          fix: 'draw the sample from a run of simulated respondents only',
        });
      }
      const seen = {} as Record<Dimension, boolean | null>;
      for (const d of DIMS)
        seen[d] =
          t[d] === null
            ? null
            : uniform(options.seed, r.name, item.id, d) < r.accuracy
              ? t[d]
              : !t[d];
      const cell = (v: boolean | null) => (v === null ? '' : String(v));
      const strategy = DT_OF[String(truth!.strategy)] ?? -1;
      const dts = [0, 1, 2].map((i) => (seen.d4 ? String(i === strategy) : ''));
      records.push([
        item.id,
        item.trial_id,
        item.model,
        item.paradigm,
        item.lang,
        r.name,
        'label',
        cell(seen.d1),
        cell(seen.d2),
        item.images.length > 0 ? cell(seen.d3) : 'na',
        cell(seen.d4),
        ...dts,
        cell(seen.d5),
        `${SIMULATED_RATER_NOTE} (accuracy ${r.accuracy}, seed ${options.seed}): labels drawn from the simulator\u2019s truth`,
        String(seen.d1 !== null && seen.d2 !== null && seen.d4 !== null && seen.d5 !== null),
        '',
        '',
        options.sampleSha256,
        options.sample.bundle.digest,
        '1',
      ]);
    }
  }
  return {
    csv: csvText(LABEL_COLUMNS, records),
    rows: records.length,
  };
}

/** What `writeSimRaterLabels` needs: the sample file, the run ledger it was drawn from, the raters. */
export interface SimRaterFileOptions {
  /** A `stimkit label sample` file drawn from `ledger`. */
  sample: string;
  /** The run ledger of simulated respondents (its results carry the truth). */
  ledger: string;
  /** The ledger's run label (default: its latest run). */
  run?: string;
  raters: readonly SimRater[];
  seed: number;
  out: string;
}

/**
 * Refuse a ledger the sample was not drawn from (E_SIM_RATER_LEDGER): a run of another bundle,
 * or one that lacks sampled responses (`found`: how many sampled items the run holds).
 */
export function checkSampleFromLedger(c: {
  sampleFile: string;
  sample: LabelSample;
  ledgerFile: string;
  run: string;
  runDigest: string;
  found: number;
}): void {
  const n = c.sample.items.length;
  const fix = `pass the --ledger the sample was drawn from (the sample names it: ${c.sample.inputs?.responses.file ?? 'inputs.responses.file'}), or --run LABEL for its run`;
  if (c.runDigest !== c.sample.bundle.digest) {
    throw StimkitError.fromProblem({
      code: 'E_SIM_RATER_LEDGER',
      file: c.ledgerFile,
      message: `the sample was not drawn from this ledger: run "${c.run}" answered another bundle than the sample's`,
      expected: `bundle ${c.sample.bundle.digest} (${c.sampleFile})`,
      got: `bundle ${c.runDigest}`,
      fix,
    });
  }
  if (c.found < n) {
    throw StimkitError.fromProblem({
      code: 'E_SIM_RATER_LEDGER',
      file: c.ledgerFile,
      message: `the sample was not drawn from this ledger: ${n - c.found} of its ${n} sampled responses are not in run "${c.run}"`,
      expected: `all ${n} sampled responses of ${c.sampleFile}`,
      got: `${c.found} found`,
      fix,
    });
  }
}

/** Read the sample and the ledger's truths, and write the simulated labels CSV to `out` (atomically). */
export async function writeSimRaterLabels(
  options: SimRaterFileOptions,
): Promise<{ out: string; rows: number; raters: string[] }> {
  const { sample, sha256 } = await readLabelSample(options.sample);
  const wanted = new Set(sample.items.map((i) => `${i.trial_id}@${i.model}`));
  const truths = new Map<string, Record<string, unknown> | null>();
  const ledger = openLedger(options.ledger);
  try {
    const run = ledger.run(options.run);
    for (const r of ledger.results({ run: options.run })) {
      const k = `${r.trial_id}@${r.model}`;
      if (wanted.has(k)) truths.set(k, r.truth);
    }
    checkSampleFromLedger({
      sampleFile: options.sample,
      sample,
      ledgerFile: options.ledger,
      run: run.label,
      runDigest: run.bundle_digest,
      found: truths.size,
    });
  } finally {
    ledger.close();
  }
  const { csv, rows } = simulateRaterLabels({
    sample,
    sampleSha256: sha256,
    truths,
    raters: options.raters,
    seed: options.seed,
  });
  const out = path.resolve(options.out);
  await writeFileAtomic(out, csv);
  return { out, rows, raters: options.raters.map((r) => r.name).sort() };
}
