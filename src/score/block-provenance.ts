/**
 * Who blocked, by the vendor's own words: what a reply's stop metadata says about a refusal or a
 * block, read at score time from what the ledger keeps (`finish_reason`, `error_class`, the
 * redacted `error_body`), so older ledgers get it too. `block_source` is `gateway` (a routing
 * gateway's moderation, e.g. OpenRouter's 403 with `error.metadata.reasons`), `vendor_classifier`
 * (the vendor's filter: Anthropic's `stop_reason: "refusal"`, Gemini's `blockReason` and filter
 * `finishReason`s, OpenAI's `finish_reason: "content_filter"`, Azure's content filter results and
 * 400 `content_filter` error), `model` (the model's structured refusal, `message.refusal`) or
 * `unclassified` (stop metadata stimkit does not know; never read as an answer or a refusal).
 * `block_category` is the vendor's category in lower snake case (`|` between several), with the
 * raw value beside it. docs/formats/scores.md lists every shape.
 */
import type { ResponseRecord } from './types.js';
import { GEMINI_FILTER_REASONS } from '../client/providers/gemini.js';

type BlockSource = 'gateway' | 'vendor_classifier' | 'model' | 'unclassified';

/** What the vendor said about a block (null: nothing blocked and no unknown stop). */
export interface BlockProvenance {
  source: BlockSource;
  /** The vendor's category, lower snake case; null when the vendor named none. */
  category: string | null;
  /** The category as the vendor spelled it; null when it named none. */
  category_raw: string | null;
  /** More of what the vendor said: an explanation, safety ratings, filter severities. */
  detail: string | null;
}

/** Stops that end a reply normally (OpenAI-style, Anthropic, Gemini): nobody said no. */
const NORMAL_STOPS = new Set([
  'stop',
  'length',
  'tool_calls',
  'function_call',
  'end_turn',
  'stop_sequence',
  'tool_use',
  'pause_turn',
  'max_tokens',
  'model_context_window_exceeded',
  'STOP',
  'MAX_TOKENS',
]);

/** A vendor's category in lower snake case (`HARM_CATEGORY_X`, `selfHarm`, `self-harm` → `…_…`). */
function snakeCase(v: string): string {
  return v
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The error body as JSON (null when absent, cut by the ledger or not JSON). */
function bodyJson(body: string | null | undefined): Obj | null {
  if (!body) return null;
  try {
    const v: unknown = JSON.parse(body);
    return isObj(v) ? v : null;
  } catch {
    return null;
  }
}

const made = (
  source: BlockSource,
  raw: string | null,
  detail: string | null = null,
): BlockProvenance => ({
  source,
  category: raw === null ? null : raw.split('|').map(snakeCase).join('|'),
  category_raw: raw,
  detail,
});

/** Gemini safety ratings as `category:probability[:blocked]`, `|` between them. */
function ratings(v: unknown): string | null {
  if (!Array.isArray(v)) return null;
  const out = v.filter(isObj).map((r) => {
    const c = snakeCase(str(r.category) ?? 'unknown');
    const p = snakeCase(str(r.probability) ?? 'unknown');
    return `${c}:${p}${r.blocked === true ? ':blocked' : ''}`;
  });
  return out.length ? out.join('|') : null;
}

/**
 * Azure OpenAI content filter results (`{hate: {filtered, severity}, jailbreak: {filtered,
 * detected}, …}`): the filtered categories (raw, `|`-joined) and each with its severity.
 */
function azureFiltered(...results: unknown[]): { raw: string; detail: string } | null {
  const names: string[] = [];
  const detail: string[] = [];
  for (const res of results) {
    if (!isObj(res)) continue;
    for (const [name, v] of Object.entries(res)) {
      if (!isObj(v) || v.filtered !== true || names.includes(name)) continue;
      names.push(name);
      detail.push(
        `${snakeCase(name)}:${str(v.severity) ?? (v.detected === true ? 'detected' : 'filtered')}`,
      );
    }
  }
  return names.length ? { raw: names.join('|'), detail: detail.join('|') } : null;
}

/** The prompt filter results of an Azure reply (`prompt_filter_results[].content_filter_results`). */
function promptFilters(v: unknown): unknown[] {
  return Array.isArray(v) ? v.filter(isObj).map((p) => p.content_filter_results) : [];
}

/** Anthropic `stop_reason: "refusal"`: its streaming classifiers' stop, with `stop_details`. */
function anthropicRefusal(body: Obj | null): BlockProvenance {
  return made('vendor_classifier', str(body?.category), str(body?.explanation));
}

/** An OpenAI-style `finish_reason: "content_filter"`, with Azure's filter results when kept. */
function contentFilterStop(body: Obj | null): BlockProvenance {
  const f = azureFiltered(
    body?.content_filter_results,
    ...promptFilters(body?.prompt_filter_results),
  );
  return f
    ? made('vendor_classifier', f.raw, f.detail)
    : made('vendor_classifier', 'content_filter');
}

/** A 4xx policy error body: OpenRouter's moderation, Azure's content filter, else unclassified. */
function policyError(body: Obj | null): BlockProvenance {
  const e = isObj(body?.error) ? body.error : null;
  const meta = isObj(e?.metadata) ? e.metadata : null;
  const reasons = Array.isArray(meta?.reasons) ? meta.reasons.filter((r) => str(r)) : [];
  if (meta && (reasons.length > 0 || 'flagged_input' in meta))
    return made('gateway', reasons.length ? reasons.join('|') : null, str(meta.flagged_input));
  const inner = isObj(e?.innererror) ? e.innererror : null;
  const azure = azureFiltered(inner?.content_filter_result);
  if (azure) return made('vendor_classifier', azure.raw, azure.detail);
  if (str(e?.code) === 'content_filter') return made('vendor_classifier', 'content_filter');
  return made('unclassified', str(e?.code) ?? str(e?.type) ?? str(e?.status), str(e?.message));
}

/** A Gemini stop: `prompt_blocked:<blockReason>` or a filter `finishReason`, with safety ratings. */
function geminiStop(finish: string, body: Obj | null): BlockProvenance | null {
  if (finish.startsWith('prompt_blocked:'))
    return made(
      'vendor_classifier',
      finish.slice('prompt_blocked:'.length),
      ratings(body?.safetyRatings),
    );
  if (GEMINI_FILTER_REASONS.has(finish))
    return made('vendor_classifier', finish, ratings(body?.safetyRatings));
  return null;
}

/**
 * What the vendor said about a refusal or block of this response (null: an answer, suppression,
 * cut or failure with only normal stops).
 */
function blockProvenance(r: ResponseRecord): BlockProvenance | null {
  const finish = r.finish_reason ?? null;
  const body = bodyJson(r.error_body);
  if (r.outcome === 'failed') return null;
  if (r.outcome === 'model_refusal') return made('model', null);
  if (finish === 'refusal' || r.error_class === 'refusal') return anthropicRefusal(body);
  if (finish === 'content_filter') return contentFilterStop(body);
  if (r.error_class === 'policy_block') return policyError(body);
  const gemini = finish === null ? null : geminiStop(finish, body);
  if (gemini) return gemini;
  if (r.outcome === 'provider_block') return made('unclassified', finish ?? r.error_class ?? null);
  if (finish !== null && !NORMAL_STOPS.has(finish)) return made('unclassified', finish);
  return null;
}

/** The score record's block fields of a response (all null when nothing blocked). */
export function blockFields(r: ResponseRecord) {
  const b = blockProvenance(r);
  return {
    block_source: b?.source ?? null,
    block_category: b?.category ?? null,
    block_category_raw: b?.category_raw ?? null,
    block_detail: b?.detail ?? null,
  };
}
