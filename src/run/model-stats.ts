/** Per-model counters of a run, shown live and returned in the `--json` summary. */

/** What happened to one model in this invocation. */
export interface ModelStats {
  model: string;
  provider: string;
  /** Trials selected for this model. */
  selected: number;
  /** Selected trials that already had a final result when the run started. */
  skipped: number;
  /** Trials to send in this invocation. */
  pending: number;
  /**
   * Selected trials held back: in a batch file whose output no import has read (sent only with
   * --send-exported), and the files.
   */
  inBatch: { trials: number; files: string[] };
  /** Final results recorded now (answers and findings). */
  done: number;
  /** Final results by outcome (answer, provider_block, model_refusal, suppressed, length). */
  outcomes: Record<string, number>;
  /** Trials recorded as failed, by error class. */
  failed: Record<string, number>;
  /** Attempts that were retried, by error class. */
  retried: Record<string, number>;
  inFlight: number;
  tokens: { prompt: number; completion: number };
  /** USD of the results recorded now (their usage × the model's price; cost.ts). */
  cost_usd: number;
  /** Results recorded now with usage but no cost (the model has no price block). */
  unpriced: number;
  /** Set when the model's run stopped early (401/403). */
  stopped: string | null;
  startedMs: number;
  wallMs: number;
}

export function newStats(
  model: string,
  provider: string,
  selected: number,
  skipped: number,
  pending: number,
): ModelStats {
  return {
    model,
    provider,
    selected,
    skipped,
    pending,
    inBatch: { trials: 0, files: [] },
    done: 0,
    outcomes: {},
    failed: {},
    retried: {},
    inFlight: 0,
    tokens: { prompt: 0, completion: 0 },
    cost_usd: 0,
    unpriced: 0,
    stopped: null,
    startedMs: performance.now(),
    wallMs: 0,
  };
}

export const bump = (rec: Record<string, number>, key: string, n = 1): void => {
  rec[key] = (rec[key] ?? 0) + n;
};

export const sum = (rec: Record<string, number>): number =>
  Object.values(rec).reduce((a, b) => a + b, 0);

/** Add a reply's usage to the token counters. */
export function addUsage(s: ModelStats, usage: Record<string, unknown> | null | undefined): void {
  if (!usage) return;
  if (typeof usage.prompt_tokens === 'number') s.tokens.prompt += usage.prompt_tokens;
  if (typeof usage.completion_tokens === 'number') s.tokens.completion += usage.completion_tokens;
}
