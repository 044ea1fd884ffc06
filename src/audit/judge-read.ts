/**
 * Reading a judge's labels back from the judge ledger: every final result of the judge run,
 * parsed and checked against the judged response (judge-parse.ts). Parsing happens on read, so
 * the raw replies in the ledger stay the record and a better parser can re-read them.
 */
import { existsSync } from 'node:fs';
import { openLedger } from '../ledger/index.js';
import { parseJudgeReply, type ParseContext, type ParsedLabel } from './judge-parse.js';
import { splitJudgeKey } from './judge-request.js';

/** One judged response as read back. */
export interface JudgedResponse {
  judge: string;
  trialId: string;
  model: string;
  /** The ledger outcome of the judge call (answer, model_refusal, provider_block, failed, …). */
  outcome: string;
  /** The judge's raw reply, as received. */
  raw: string | null;
  simulated: boolean;
  /** The sim judge's true labels (sim judges only). */
  truth: Record<string, unknown> | null;
  /** The parsed label; status `failed` when the call itself failed. */
  parsed:
    | ParsedLabel
    | {
        status: 'failed';
        label: null;
        flags: [];
        problems: string[];
        extraction: null;
        bad_quotes: [];
      };
}

/** Labels of `judge` in judge run `run`, by judge key; `contextOf` gives each response and its trial's facts. */
export function readJudgeLabels(
  ledgerFile: string,
  run: string,
  judge: string,
  contextOf: (trialId: string, model: string) => ParseContext | null,
): Map<string, JudgedResponse> {
  const out = new Map<string, JudgedResponse>();
  if (!existsSync(ledgerFile)) return out;
  const reader = openLedger(ledgerFile);
  try {
    if (!reader.runs().some((r) => r.label === run)) return out;
    for (const r of reader.results({ run, model: judge })) {
      const { trialId, model } = splitJudgeKey(r.trial_id);
      const ctx = contextOf(trialId, model);
      if (!ctx) continue;
      const parsed: JudgedResponse['parsed'] =
        r.outcome === 'failed'
          ? {
              status: 'failed',
              label: null,
              flags: [],
              problems: [`the judge call failed: ${r.error_class ?? 'unknown'}`],
              extraction: null,
              bad_quotes: [],
            }
          : parseJudgeReply(
              {
                content: refusedJudge(r.outcome) ? null : r.text,
                refusal: refusedJudge(r.outcome) ? (r.text ?? r.error_body ?? r.outcome) : null,
                finish_reason: r.finish_reason,
              },
              ctx,
            );
      out.set(r.trial_id, {
        judge,
        trialId,
        model,
        outcome: r.outcome,
        raw: r.text,
        simulated: r.simulated,
        truth: r.truth,
        parsed,
      });
    }
  } finally {
    reader.close();
  }
  return out;
}

/** A judge call its model or its provider declined (ledger outcomes model_refusal, provider_block). */
const refusedJudge = (outcome: string): boolean =>
  outcome === 'model_refusal' || outcome === 'provider_block';
