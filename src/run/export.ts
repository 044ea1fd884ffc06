/**
 * `stimkit run export`: one row per trial × model of a run, with the trial's design fields (and
 * its conversation, turn and follow-up for a turn of a pressure conversation) and the response, as
 * JSONL or CSV (RFC 4180). A turn recorded as not sent (a turn before it ended without an answer)
 * is a row too, with outcome `not_sent` and the reason, so that no planned turn is missing. Reads
 * the ledger through the reader API only.
 */
import { csvField, type Cell } from '../core/csv.js';
import { StimkitError } from '../core/errors.js';
import type { ConversationFields } from '../ledger/turns.js';
import {
  openLedger,
  type LedgerResult,
  type LedgerUnsent,
  type ResultFilter,
} from '../ledger/read.js';

/** The exported columns, in order. */
const EXPORT_COLUMNS = [
  'bundle_digest',
  'run',
  'model',
  'trial_id',
  'block',
  'paradigm',
  'arm',
  'lang',
  'entry',
  'item',
  'topic',
  'variant',
  'framing',
  'iteration',
  'seed',
  'prompt',
  // The trial's model set (its `models` field: which models the design sends it to), as the JSONL.
  'model_set',
  // The level (on, off) of the thinking factor of the trial's block; empty without the factor.
  'thinking',
  // A turn of a conversation (pressure): its conversation, turn (1-based) and follow-up kind.
  'conversation_id',
  'turn',
  'followup',
  'outcome',
  // Why a turn was not sent (outcome not_sent): previous_turn_<outcome> or previous_turn_not_sent.
  'not_sent_reason',
  'response_text',
  'reasoning_text',
  // How much of the reasoning the server showed, and its tokens (docs/formats/ledger.md).
  'reasoning_visibility',
  'reasoning_tokens',
  'finish_reason',
  'prompt_tokens',
  'completion_tokens',
  'served_model',
  'system_fingerprint',
  'simulated',
  'truth',
  'dropped',
  'error_class',
  'http_status',
  'error_body',
  'attempts',
  'latency_ms',
  'finished_at',
  // What the request sent (JSON list: source and sent sha256, bytes, width, height, mime) and cost.
  'sent_images',
  'cost_usd',
  // The serving route that answered (docs/formats/ledger.md, results).
  'route',
  'route_provider',
  'response_id',
  'request_id',
  'region',
  'endpoint',
] as const;

type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], unknown>;

/** A row's conversation columns: empty for a trial outside a conversation. */
const turnColumns = (f: ConversationFields | undefined) => ({
  conversation_id: f?.conversation_id ?? null,
  turn: f?.turn ?? null,
  followup: f?.followup ?? null,
});

/** What a row adds to its result or unsent turn: its conversation fields and thinking level. */
interface TrialExtras {
  turn: ConversationFields | undefined;
  thinking: string | null;
}

/** One export row (flat). */
function exportRow(r: LedgerResult, extras: TrialExtras): ExportRow {
  return {
    bundle_digest: r.bundle_digest,
    run: r.run,
    model: r.model,
    trial_id: r.trial_id,
    ...r.trial,
    thinking: extras.thinking,
    ...turnColumns(extras.turn),
    outcome: r.outcome,
    not_sent_reason: null,
    response_text: r.text,
    reasoning_text: r.reasoning,
    reasoning_visibility: r.reasoning_visibility,
    reasoning_tokens: r.reasoning_tokens,
    finish_reason: r.finish_reason,
    prompt_tokens: r.usage?.prompt_tokens ?? null,
    completion_tokens: r.usage?.completion_tokens ?? null,
    served_model: r.served_model,
    system_fingerprint: r.system_fingerprint,
    simulated: r.simulated,
    truth: r.truth,
    dropped: r.dropped.length ? r.dropped.join(',') : null,
    error_class: r.error_class,
    http_status: r.http_status,
    error_body: r.error_body,
    attempts: r.attempts,
    latency_ms: r.latency_ms === null ? null : Math.round(r.latency_ms * 10) / 10,
    finished_at: r.finished_at,
    sent_images: r.sent_images.length ? r.sent_images : null,
    cost_usd: r.cost_usd,
    route: r.route,
    route_provider: r.route_provider,
    response_id: r.response_id,
    request_id: r.request_id,
    region: r.region,
    endpoint: r.endpoint,
  };
}

/** The row of a turn recorded as not sent: its design fields, outcome `not_sent` and the reason. */
function unsentRow(u: LedgerUnsent, extras: TrialExtras): ExportRow {
  const empty = Object.fromEntries(EXPORT_COLUMNS.map((c) => [c, null])) as ExportRow;
  return {
    ...empty,
    bundle_digest: u.bundle_digest,
    run: u.run,
    model: u.model,
    trial_id: u.trial_id,
    ...u.trial,
    thinking: extras.thinking,
    ...turnColumns(extras.turn ?? { ...u, followup: null }),
    outcome: 'not_sent',
    not_sent_reason: u.reason,
    simulated: u.simulated,
    // Nothing was sent: no attempt; the time is when the turn was recorded as not sent.
    attempts: 0,
    finished_at: u.recorded_at,
  };
}

/** SQLite's order of text (BINARY: the UTF-8 bytes), which `results` and `turns` are sorted in. */
const sqliteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * The export rows in the ledger's order (model, then trial id): the results, with the turns
 * recorded as not sent merged in.
 */
function* exportRows(
  results: Iterable<LedgerResult>,
  turns: { fields: Map<string, ConversationFields>; unsent: LedgerUnsent[] },
  thinking: Map<string, string>,
): Generator<ExportRow> {
  const unsent = turns.unsent;
  const extras = (trialId: string): TrialExtras => ({
    turn: turns.fields.get(trialId),
    thinking: thinking.get(trialId) ?? null,
  });
  let i = 0;
  const next = () => {
    const u = unsent[i++]!;
    return unsentRow(u, extras(u.trial_id));
  };
  const before = (r: LedgerResult) => {
    const u = unsent[i]!;
    return (sqliteOrder(u.model, r.model) || sqliteOrder(u.trial_id, r.trial_id)) < 0;
  };
  for (const r of results) {
    while (i < unsent.length && before(r)) yield next();
    yield exportRow(r, extras(r.trial_id));
  }
  while (i < unsent.length) yield next();
}

function csvCell(v: unknown, raw: boolean): string {
  return csvField(v !== null && typeof v === 'object' ? JSON.stringify(v) : (v as Cell), { raw });
}

/**
 * Export a ledger's results; `write` receives the text in pieces. Returns the number of rows.
 * CSV cells a spreadsheet would run as formulas are neutralised unless `csvRaw` (`--csv-raw`).
 */
export function exportLedger(
  file: string,
  format: 'jsonl' | 'csv',
  filter: ResultFilter,
  write: (chunk: string) => void,
  options: { csvRaw?: boolean } = {},
): number {
  const ledger = openLedger(file);
  try {
    if (filter.model !== undefined) {
      const names = Array.isArray(filter.model) ? filter.model : [filter.model];
      const known = ledger.models(filter.run).map((m) => m.model);
      const unknown = names.filter((m) => !known.includes(m));
      if (unknown.length > 0) {
        const run = ledger.run(filter.run).label;
        throw StimkitError.usage(
          'E_RUN_UNKNOWN_MODEL',
          `--model: ${unknown.map((m) => `"${m}"`).join(', ')} not in run "${run}" of ${file} (it has: ${known.join(', ') || 'no models'})`,
          'name models of that run (listed above), or pick the run with --run',
        );
      }
    }
    let n = 0;
    if (format === 'csv') write(`${EXPORT_COLUMNS.join(',')}\r\n`);
    let buf = '';
    const rows = exportRows(
      ledger.results(filter),
      ledger.turns(filter),
      ledger.thinking(filter.run),
    );
    for (const row of rows) {
      buf +=
        format === 'csv'
          ? `${EXPORT_COLUMNS.map((c) => csvCell(row[c], options.csvRaw ?? false)).join(',')}\r\n`
          : `${JSON.stringify(row)}\n`;
      if (buf.length > 1 << 16) {
        write(buf);
        buf = '';
      }
      n++;
    }
    if (buf) write(buf);
    return n;
  } finally {
    ledger.close();
  }
}

/** One image a result sent, with its model and trial (the ledger's `sent_images`). */
export interface SentImageRow {
  model: string;
  trial_id: string;
  entry: string | null;
  variant: string | null;
  source: string;
  sha256: string;
  bytes: number;
  width: number | null;
  height: number | null;
  mime: string;
}

/**
 * What each model of a run was sent: its image policy (the request profile's `image` block, null
 * when it had none: images as the bundle holds them) and every image of every result, read
 * through the same ledger reader as the export.
 */
export function sentImagesOf(
  file: string,
  run?: string,
): { run: string; policies: Map<string, Record<string, unknown> | null>; images: SentImageRow[] } {
  const ledger = openLedger(file);
  try {
    const label = ledger.run(run).label;
    const policies = new Map(
      ledger
        .models(label)
        .map((m) => [m.model, (m.profile?.image as Record<string, unknown> | undefined) ?? null]),
    );
    const images: SentImageRow[] = [];
    for (const r of ledger.sentImages(label)) {
      for (const i of r.images)
        images.push({
          model: r.model,
          trial_id: r.trial_id,
          entry: r.entry,
          variant: r.variant,
          source: String(i.source),
          sha256: String(i.sha256),
          bytes: Number(i.bytes),
          width: typeof i.width === 'number' ? i.width : null,
          height: typeof i.height === 'number' ? i.height : null,
          mime: String(i.mime),
        });
    }
    return { run: label, policies, images };
  } finally {
    ledger.close();
  }
}
