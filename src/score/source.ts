/**
 * The responses of a response source, for the judges: a run ledger's run, or a responses JSONL
 * file, whose judge runs are named after the first 12 hex digits of its sha256.
 */
import { sha256File } from '../core/fsio.js';
import type { ScoreBundle } from './bundle.js';
import { readLedgerResponses } from './ledger.js';
import { readResponsesJsonl } from './responses.js';
import type { ResponseSource } from './score.js';
import type { ResponseRecord } from './types.js';

/** The responses of `source` and the label of the run they belong to. */
export async function responsesOfSource(
  source: ResponseSource,
  bundle: ScoreBundle,
): Promise<{ responses: ResponseRecord[]; run: string }> {
  if (source.kind === 'ledger') {
    const { responses, run } = readLedgerResponses(source.file, bundle, source.run);
    return { responses, run };
  }
  return {
    responses: await readResponsesJsonl(source.file, bundle.order),
    run: `responses-${(await sha256File(source.file)).slice(0, 12)}`,
  };
}
