/**
 * One Inspect log (`.eval`): a study × paradigm × model. Written in Inspect's own order:
 * `_journal/start.json` (the eval spec and plan), `samples/<id>_epoch_<n>.json` one by one,
 * then `summaries.json` and `header.json` (the spec with the results and stats), which Inspect's
 * reader reads first. Ids Inspect needs and stimkit does not have (eval, run, task) are derived
 * from the bundle digest, the ledger run, the paradigm and the model.
 */
import { StimkitError } from '../core/errors.js';
import { TOOL } from '../core/tool.js';
import type { Trial } from '../bundle/format.js';
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  INSPECT_FOLLOWED,
  type EvalSample,
  type EvalSampleSummary,
  type ModelUsage,
} from './inspect-format.js';
import { derivedId } from './inspect-sample.js';
import { openZip, type PieceCache, type Recurring, type ZipSink } from './zip.js';

/** What one log is of. */
export interface LogSpec {
  study: string;
  digest: string;
  /** The ledger run exported (label and start time). */
  run: { label: string; created_at: string };
  paradigm: string;
  /** stimkit's model name, and Inspect's (`<provider>/<model>`). */
  model: string;
  inspectModel: string;
  /** The dataset: the paradigm's sample ids (in plan order) and its first trial (for sampling). */
  sampleIds: string[];
  epochs: number;
  first: Trial;
  /** The score names a sample can carry (`outcome` first). */
  scorers: string[];
  /** What the export was made from (recorded in the spec's metadata). */
  inputs: Record<string, unknown>;
}

/** The eval spec (`EvalSpec`) of a log. */
function evalSpec(s: LogSpec): Record<string, unknown> {
  const sampling = s.first.sampling as Record<string, unknown>;
  const config = Object.fromEntries(
    ['temperature', 'top_p', 'top_k', 'max_tokens']
      .filter((k) => typeof sampling[k] === 'number')
      .map((k) => [k, sampling[k]]),
  );
  return {
    eval_id: derivedId('eval', s.digest, s.run.label, s.paradigm, s.model),
    run_id: derivedId('run', s.digest, s.run.label),
    created: s.run.created_at,
    task: `${s.study}/${s.paradigm}`,
    task_id: derivedId('task', s.digest, s.paradigm),
    task_version: 0,
    task_attribs: {},
    task_args: {},
    task_args_passed: {},
    dataset: {
      name: s.study,
      location: `stimkit-bundle:sha256:${s.digest}`,
      samples: s.sampleIds.length,
      sample_ids: s.sampleIds,
      shuffled: false,
    },
    model: s.inspectModel,
    model_generate_config: config,
    model_args: {},
    config: { epochs: s.epochs },
    packages: { [TOOL.name]: TOOL.version },
    scorers: s.scorers.map((name) => ({ name })),
    metadata: {
      stimkit: {
        format: EXPORT_FORMAT,
        version: EXPORT_VERSION,
        tool: TOOL,
        inspect: INSPECT_FOLLOWED,
        bundle: { digest: s.digest, study: s.study },
        ledger_run: s.run.label,
        model: s.model,
        paradigm: s.paradigm,
        inputs: s.inputs,
      },
    },
  };
}

const PLAN = {
  name: 'plan',
  steps: [{ solver: 'stimkit run', params: {}, params_passed: {} }],
  config: {},
};

function addUsage(total: ModelUsage | undefined, u: ModelUsage): ModelUsage {
  if (!total) return { ...u };
  const sum = (a: number | undefined, b: number | undefined) =>
    a === undefined ? b : b === undefined ? a : a + b;
  const reasoning = sum(total.reasoning_tokens, u.reasoning_tokens);
  const cost = sum(total.total_cost, u.total_cost);
  return {
    input_tokens: total.input_tokens + u.input_tokens,
    output_tokens: total.output_tokens + u.output_tokens,
    total_tokens: total.total_tokens + u.total_tokens,
    ...(reasoning !== undefined ? { reasoning_tokens: reasoning } : {}),
    ...(cost !== undefined ? { total_cost: cost } : {}),
  };
}

/** Text that JSON writes as it is: printable ASCII but `"` and `\` (a data URL is). */
const VERBATIM_IN_JSON = /^[ !#-[\]-~]*$/;

/**
 * `JSON.stringify(sample)` with its attachments (the images' data URLs) apart, as zip.ts's
 * `Recurring` parts: the sample is stringified with a placeholder for each attachment, and the
 * text is cut at each placeholder. Joined, the parts are the same text as `JSON.stringify(sample)`
 * (a data URL is written as it is, checked), but the text built and searched no longer holds the
 * images: that took about a third of `export inspect`'s time on the demo. A placeholder that the
 * sample's own text holds too, or an attachment JSON would escape, gives the whole string instead.
 */
export function sampleParts(sample: EvalSample): string | Array<string | Recurring> {
  const entries = Object.entries(sample.attachments);
  if (entries.length === 0 || !entries.every(([, url]) => VERBATIM_IN_JSON.test(url)))
    return JSON.stringify(sample);
  const mark = (i: number) => `stimkit-attachment-${i}`;
  const attachments = Object.fromEntries(entries.map(([key], i) => [key, mark(i)]));
  const text = JSON.stringify({ ...sample, attachments });
  const parts: Array<string | Recurring> = [];
  let at = 0;
  for (const [i, [, url]] of entries.entries()) {
    // the placeholder as JSON wrote it; the quotes stay in the text around the data URL
    const quoted = `"${mark(i)}"`;
    const where = text.indexOf(quoted);
    if (where < at || text.lastIndexOf(quoted) !== where) return JSON.stringify(sample);
    parts.push(text.slice(at, where + 1), { recurring: url });
    at = where + quoted.length - 1;
  }
  parts.push(text.slice(at));
  return parts;
}

/** Per score name: how many samples carry it, and the sum of its values while all are numbers. */
interface ScoreTally {
  scored: number;
  sum: number | null;
}

/** A log being written. */
export class InspectLogWriter {
  private readonly summaries: EvalSampleSummary[] = [];
  private readonly seen = new Set<string>();
  private readonly tallies = new Map<string, ScoreTally>();
  private usage: ModelUsage | undefined;
  private completedAt = '';

  private constructor(
    private readonly spec: LogSpec,
    private readonly zip: ZipSink,
  ) {}

  /** Open `file` and write `_journal/start.json`; `cache` holds the images' deflated pieces. */
  static async open(file: string, spec: LogSpec, cache?: PieceCache): Promise<InspectLogWriter> {
    const zip = await openZip(file, cache);
    const w = new InspectLogWriter(spec, zip);
    await zip.add(
      '_journal/start.json',
      JSON.stringify({ version: 2, eval: evalSpec(spec), plan: PLAN }),
    );
    return w;
  }

  /** Add one sample (its id × epoch must be new in this log). */
  async add(sample: EvalSample, summary: EvalSampleSummary): Promise<void> {
    const name = `samples/${sample.id}_epoch_${sample.epoch}.json`;
    if (this.seen.has(name))
      throw StimkitError.fromProblem({
        code: 'E_EXPORT_SAMPLE_ID',
        field: name,
        message: 'two results of this model map to one sample id and epoch',
        fix: 'report this as a bug: each trial of a paradigm has its own design cell and seed or iteration',
      });
    this.seen.add(name);
    // an image's data URL recurs in every sample that shows it: deflated once (zip.ts)
    await this.zip.add(name, sampleParts(sample), Object.values(sample.attachments));
    this.summaries.push(summary);
    for (const [k, score] of Object.entries(sample.scores)) {
      const t = this.tallies.get(k) ?? { scored: 0, sum: 0 };
      t.scored += 1;
      t.sum = t.sum !== null && typeof score.value === 'number' ? t.sum + score.value : null;
      this.tallies.set(k, t);
    }
    const u = sample.model_usage[this.spec.inspectModel];
    if (u) this.usage = addUsage(this.usage, u);
    if (sample.completed_at && sample.completed_at > this.completedAt)
      this.completedAt = sample.completed_at;
  }

  /** Write `summaries.json` and `header.json`, close the file; its sha256, size and sample count. */
  async close(): Promise<{ sha256: string; bytes: number; samples: number }> {
    const n = this.summaries.length;
    await this.zip.add('summaries.json', JSON.stringify(this.summaries));
    const scores = this.spec.scorers.map((name) => {
      const t = this.tallies.get(name) ?? { scored: 0, sum: null };
      const mean = t.sum !== null && t.scored > 0 ? t.sum / t.scored : null;
      return {
        name,
        scorer: name,
        params: {},
        metrics: mean !== null ? { mean: { name: 'mean', value: mean, params: {} } } : {},
        scored_samples: t.scored,
        unscored_samples: n - t.scored,
      };
    });
    const header = {
      version: 2,
      status: 'success',
      eval: evalSpec(this.spec),
      plan: PLAN,
      results: { total_samples: n, completed_samples: n, scores },
      stats: {
        started_at: this.spec.run.created_at,
        completed_at: this.completedAt || this.spec.run.created_at,
        model_usage: this.usage ? { [this.spec.inspectModel]: this.usage } : {},
        role_usage: {},
        connection_limit_history: [],
      },
      invalidated: false,
      tags: [],
      metadata: {},
    };
    await this.zip.add('header.json', JSON.stringify(header));
    return { ...(await this.zip.close()), samples: n };
  }

  /** Close the file unfinished, after a failure. */
  abort(): Promise<void> {
    return this.zip.abort();
  }
}
