/**
 * Reading a ledger (the stable reader API for the score stage and for exports). Opens the file
 * read-only, so it can run while `stimkit run` writes (WAL). Every result carries its trial's
 * design fields, so no bundle is needed to read it.
 *
 * @example
 * const ledger = openLedger('study.ledger.sqlite');
 * for (const r of ledger.results({ model: 'Qwen2-VL-7B' })) console.log(r.trial_id, r.outcome, r.text);
 * ledger.close();
 */
import { StimkitError } from '../core/errors.js';
import { openLedgerDb, type Db } from './open.js';
import { sentImageRows, type SentImages } from './sent-images.js';
import { usageRows, type ResultUsage } from './usage.js';
import { answerOf, responseRows, routeOf, visibilityOf, type LedgerResponse } from './responses.js';
import {
  conversationFields,
  thinkingLevels,
  unsentRows,
  type ConversationFields,
  type UnsentRecord,
} from './turns.js';
import { currentOutcome, type Outcome, type ReasoningVisibility } from './schema.js';

/** A run in a ledger. */
export interface LedgerRun {
  run_id: number;
  label: string;
  bundle_digest: string;
  study_id: string | null;
  created_at: string;
}

/** A model of a run, with what the models file said about it. */
export interface LedgerModel {
  model: string;
  provider: 'openai' | 'sim';
  /** The request-shaping settings (api_model, sampling mapping, extra_body; or the sim params); null if unknown. */
  profile: Record<string, unknown> | null;
  /** api_model, origin, vendor, revision, modalities, role. */
  info: Record<string, unknown>;
}

/** The design fields of a trial (as in the bundle's trials.jsonl). */
interface LedgerTrial {
  block: string;
  paradigm: string;
  arm: string | null;
  lang: string;
  entry: string | null;
  item: string | null;
  topic: string | null;
  variant: string | null;
  framing: string | null;
  iteration: number | null;
  seed: number | null;
  prompt: string | null;
  model_set: string | null;
}

/** The final result of one (model, trial) in a run. */
export interface LedgerResult {
  run: string;
  bundle_digest: string;
  model: string;
  trial_id: string;
  trial: LedgerTrial;
  /**
   * answer | provider_block | model_refusal | suppressed | length | failed (a ledger written
   * before these names reads in them: schema.ts `currentOutcome`).
   */
  outcome: Outcome;
  /** The response text (null for failures and HTTP-level policy refusals). */
  text: string | null;
  reasoning: string | null;
  finish_reason: string | null;
  usage: {
    prompt_tokens?: number;
    completion_tokens?: number;
    total_tokens?: number;
    [k: string]: unknown;
  } | null;
  served_model: string | null;
  system_fingerprint: string | null;
  /** True for responses of a simulated respondent (`provider: sim`). */
  simulated: boolean;
  /** The simulator's true labels (simulated responses only), else null. */
  truth: Record<string, unknown> | null;
  error_class: string | null;
  http_status: number | null;
  error_body: string | null;
  /** Dropped sampling fields (e.g. ['top_k']). */
  dropped: string[];
  attempts: number;
  latency_ms: number | null;
  finished_at: string;
  request_sha256: string;
  /** The images the request sent: source and sent sha256, bytes, width, height, mime (client/send-image.ts). */
  sent_images: Array<Record<string, unknown>>;
  /** The result's cost in USD (usage × the model's price), or null when unpriced or older than the column. */
  cost_usd: number | null;
  /** The upstream provider a gateway named (OpenRouter's `provider`), else null. */
  route_provider: string | null;
  /** The reply's id (`id`, Gemini `responseId`), else null. */
  response_id: string | null;
  /** The request id of a response header (`x-request-id`, Anthropic `request-id`), else null. */
  request_id: string | null;
  /** The serving region where a header named it, else null. */
  region: string | null;
  /** The endpoint replica that answered (without credentials); null for sim and batch results. */
  endpoint: string | null;
  /** The route a summary groups by: route_provider, else endpoint, else `sim` / `unknown` (client/route.ts). */
  route: string;
  /** How much of the reasoning the server showed (schema.ts); null when not recorded (older rows). */
  reasoning_visibility: ReasoningVisibility | null;
  /** Reasoning tokens the server reported; null when not reported or older than the column. */
  reasoning_tokens: number | null;
}

/** A conversation turn recorded as not sent (ledger/turns.ts), with its run and design fields. */
export interface LedgerUnsent extends UnsentRecord {
  run: string;
  bundle_digest: string;
  trial: LedgerTrial;
}

/** Which results to read. */
export interface ResultFilter {
  /** Run label (default: the latest run). */
  run?: string;
  /** Only these models. */
  model?: string | string[];
  /** Include trials recorded as failed (default true). */
  includeFailed?: boolean;
}

interface Row {
  [k: string]: unknown;
}

/** A JSON column as the type its writer stored (null when empty). */
function parse<T>(s: unknown): T | null {
  return typeof s === 'string' ? (JSON.parse(s) as T) : null;
}

/** A read-only ledger. */
export class LedgerReader {
  constructor(
    readonly file: string,
    private readonly db: Db,
  ) {}

  /** Every run, oldest first. */
  runs(): LedgerRun[] {
    return this.db
      .prepare(
        'SELECT run_id, label, bundle_digest, study_id, created_at FROM runs ORDER BY run_id',
      )
      .all() as LedgerRun[];
  }

  /** The run labelled `label`, or the latest one. */
  run(label?: string): LedgerRun {
    const runs = this.runs();
    const r = label === undefined ? runs[runs.length - 1] : runs.find((x) => x.label === label);
    if (!r) {
      throw StimkitError.fromProblem({
        code: 'E_LEDGER_NO_RUN',
        file: this.file,
        message:
          label === undefined ? 'this ledger holds no run yet' : `no run labelled "${label}"`,
        fix: runs.length
          ? `runs here: ${runs.map((x) => x.label).join(', ')}`
          : 'run stimkit run first',
      });
    }
    return r;
  }

  /** The models of a run. */
  models(label?: string): LedgerModel[] {
    const run = this.run(label);
    return (
      this.db
        .prepare(
          'SELECT model, provider, profile, info FROM models WHERE run_id = ? ORDER BY model',
        )
        .all(run.run_id) as Row[]
    ).map((r) => ({
      model: r.model as string,
      provider: r.provider as 'openai' | 'sim',
      profile: parse(r.profile),
      info: parse(r.info) ?? {},
    }));
  }

  /** Final results of a run, ordered by model then trial id (streamed). */
  *results(filter: ResultFilter = {}): IterableIterator<LedgerResult> {
    const run = this.run(filter.run);
    const models =
      filter.model === undefined
        ? null
        : Array.isArray(filter.model)
          ? filter.model
          : [filter.model];
    const where = ['r.run_id = ?'];
    const args: unknown[] = [run.run_id];
    if (models) {
      where.push(`r.model IN (${models.map(() => '?').join(', ')})`);
      args.push(...models);
    }
    if (filter.includeFailed === false) where.push("r.outcome != 'failed'");
    const stmt = this.db.prepare(
      `SELECT r.*, ${TRIAL_COLUMNS}
       FROM results r LEFT JOIN trials t ON t.run_id = r.run_id AND t.trial_id = r.trial_id
       WHERE ${where.join(' AND ')} ORDER BY r.model, r.trial_id`,
    );
    for (const row of stmt.iterate(...args) as IterableIterator<Row>)
      yield toResult(run.label, row);
  }

  /**
   * The images each final result of run `label` sent, ordered as `results` is; only those rows
   * and columns are read (sent-images.ts).
   */
  sentImages(label?: string): IterableIterator<SentImages> {
    return sentImageRows(this.db, this.run(label).run_id);
  }

  /**
   * The usage and cost of each final result of run `label`, ordered as `results` is; only those
   * columns are read (usage.ts).
   */
  usage(label?: string): IterableIterator<ResultUsage> {
    return usageRows(this.db, this.run(label).run_id);
  }

  /**
   * The final results of a run as scoring reads them (responses.ts), ordered as `results` is;
   * only those columns are read.
   */
  responses(filter: Pick<ResultFilter, 'run' | 'model'> = {}): IterableIterator<LedgerResponse> {
    const models = filter.model === undefined ? null : ([] as string[]).concat(filter.model);
    return responseRows(this.db, this.run(filter.run).run_id, models);
  }

  /**
   * The conversation turns of a run (the pressure paradigm): each turn's conversation, turn and
   * follow-up by trial id, and the turns recorded as not sent (`unsent_turns`), ordered by model
   * and trial id as `results` is, with their design fields. Empty for a ledger older than them.
   */
  turns(filter: Pick<ResultFilter, 'run' | 'model'> = {}): {
    fields: Map<string, ConversationFields>;
    unsent: LedgerUnsent[];
  } {
    const run = this.run(filter.run);
    const models = filter.model === undefined ? null : ([] as string[]).concat(filter.model);
    const unsent = unsentRows(this.db, run.run_id, models, TRIAL_COLUMNS).map((r) => ({
      run: run.label,
      bundle_digest: run.bundle_digest,
      trial: trialOf(r),
      ...r.unsent,
    }));
    return { fields: conversationFields(this.db, run.run_id), unsent };
  }

  /**
   * The thinking factor's level (`on`, `off`) of run `label`'s trials by trial id, for the trials
   * of blocks with the factor; empty for a ledger older than the column (turns.ts `thinkingLevels`).
   */
  thinking(label?: string): Map<string, string> {
    return thinkingLevels(this.db, this.run(label).run_id);
  }

  /** The models with final results in run `label` (an index scan: no result is read). */
  resultModels(label?: string): string[] {
    const run = this.run(label);
    return (
      this.db
        .prepare('SELECT DISTINCT model FROM results WHERE run_id = ? ORDER BY model')
        .all(run.run_id) as Array<{ model: string }>
    ).map((r) => r.model);
  }

  /** The response text of one final result of run `label` (null: no text, or no such result). */
  resultText(label: string, model: string, trialId: string): string | null {
    const run = this.run(label);
    const row = this.db
      .prepare('SELECT response_text FROM results WHERE run_id = ? AND model = ? AND trial_id = ?')
      .get(run.run_id, model, trialId) as { response_text: string | null } | undefined;
    return row?.response_text ?? null;
  }

  /** Counts of final results by model and outcome in a run. */
  counts(label?: string): Array<{ model: string; outcome: Outcome; n: number }> {
    const run = this.run(label);
    const rows = this.db
      .prepare(
        'SELECT model, outcome, http_status, error_class, COUNT(*) AS n FROM results WHERE run_id = ? GROUP BY model, outcome, http_status, error_class ORDER BY model, outcome',
      )
      .all(run.run_id) as Array<{
      model: string;
      outcome: string;
      http_status: number | null;
      error_class: string | null;
      n: number;
    }>;
    const by = new Map<string, { model: string; outcome: Outcome; n: number }>();
    for (const r of rows) {
      const outcome = currentOutcome(r.outcome, r.http_status, r.error_class);
      const key = JSON.stringify([r.model, outcome]);
      const c = by.get(key) ?? { model: r.model, outcome, n: 0 };
      c.n += r.n;
      by.set(key, c);
    }
    return [...by.values()].sort((a, b) =>
      a.model === b.model ? (a.outcome < b.outcome ? -1 : 1) : a.model < b.model ? -1 : 1,
    );
  }

  close(): void {
    this.db.close();
  }
}

/** The design fields of the `trials` table (alias `t`) a result or an unsent turn is read with. */
const TRIAL_COLUMNS =
  't.block, t.paradigm, t.arm, t.lang, t.entry, t.item, t.topic, t.variant, t.framing, t.iteration, t.seed, t.prompt, t.model_set';

/** The design fields of a row read with TRIAL_COLUMNS. */
function trialOf(r: Row): LedgerTrial {
  return {
    block: r.block as string,
    paradigm: r.paradigm as string,
    arm: r.arm as string | null,
    lang: r.lang as string,
    entry: r.entry as string | null,
    item: r.item as string | null,
    topic: r.topic as string | null,
    variant: r.variant as string | null,
    framing: r.framing as string | null,
    iteration: r.iteration as number | null,
    seed: r.seed as number | null,
    prompt: r.prompt as string | null,
    model_set: r.model_set as string | null,
  };
}

function toResult(label: string, r: Row): LedgerResult {
  return {
    run: label,
    bundle_digest: r.bundle_digest as string,
    model: r.model as string,
    trial_id: r.trial_id as string,
    trial: trialOf(r),
    ...answerOf(r),
    usage: parse(r.usage),
    served_model: r.served_model as string | null,
    system_fingerprint: r.system_fingerprint as string | null,
    simulated: r.simulated === 1,
    truth: parse(r.truth),
    error_class: r.error_class as string | null,
    http_status: r.http_status as number | null,
    error_body: r.error_body as string | null,
    dropped: parse(r.dropped) ?? [],
    attempts: r.attempts as number,
    latency_ms: r.latency_ms as number | null,
    finished_at: r.finished_at as string,
    request_sha256: r.request_sha256 as string,
    sent_images: parse(r.sent_images) ?? [],
    cost_usd: typeof r.cost_usd === 'number' ? r.cost_usd : null,
    ...routeOf(r),
    reasoning_visibility: visibilityOf(r.reasoning_visibility),
    reasoning_tokens: typeof r.reasoning_tokens === 'number' ? r.reasoning_tokens : null,
  };
}

/** Open a ledger read-only. Throws E_LEDGER_NOT_FOUND / E_LEDGER_FORMAT / E_LEDGER_VERSION. */
export function openLedger(file: string): LedgerReader {
  return new LedgerReader(file, openLedgerDb(file, { readonly: true }));
}
