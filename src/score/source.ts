/**
 * The responses of a response source (a run ledger's run, or a responses JSONL file), streamed:
 * scoring and the judges read them one at a time and keep only what they need.
 */
import { sha256File } from '../core/fsio.js';
import type { ScoreBundle } from './bundle.js';
import { readLedgerRun, streamLedgerResponses, unsentTurns } from './ledger.js';
import { streamResponsesJsonl } from './responses.js';
import type { ResponseSource } from './score.js';
import type { ModelMeta, ResponseRecord } from './types.js';

/** An opened response source. */
export interface SourceResponses {
  /** The ledger run read, or null for a responses file. */
  run: string | null;
  /** Model metadata the source records (a ledger's models; none for a file). */
  models: Map<string, ModelMeta>;
  /** The responses, read as they are iterated. */
  responses: AsyncIterable<ResponseRecord>;
  /**
   * The responses in groups whose order needs no sorting across them: a ledger's models one by
   * one, in name order (so a group is one model's results); a file as one group.
   */
  groups: () => AsyncIterable<AsyncIterable<ResponseRecord>>;
  /**
   * The trials of `model` the source records as not sent, and why (a ledger's `unsent_turns`:
   * trial id → reason); empty for a responses file, which records none.
   */
  unsent: (model: string) => ReadonlyMap<string, string>;
}

/** Open `source` for `bundle`: a ledger's run is resolved and checked now, the rows read later. */
export function openResponses(source: ResponseSource, bundle: ScoreBundle): SourceResponses {
  if (source.kind === 'ledger') {
    const { run, models, names } = readLedgerRun(source.file, bundle, source.run);
    const of = (model?: string) => toAsync(() => streamLedgerResponses(source.file, run, model));
    return {
      run,
      models,
      responses: of(),
      groups: () => toAsync(() => names.map(of)[Symbol.iterator]()),
      unsent: (model) => unsentTurns(source.file, run, model),
    };
  }
  const responses = {
    [Symbol.asyncIterator]: () => streamResponsesJsonl(source.file, bundle.order),
  };
  return {
    run: null,
    models: new Map(),
    responses,
    groups: () => toAsync(() => [responses][Symbol.iterator]()),
    unsent: () => new Map(),
  };
}

function toAsync<T>(make: () => Iterator<T>): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]: () => {
      const it = make();
      return {
        // A promise that rejects, not a throw, when the iterator throws (as an async method would).
        next: () => new Promise<IteratorResult<T>>((resolve) => resolve(it.next())),
        return: (value?: unknown) =>
          new Promise<IteratorResult<T>>((resolve) =>
            resolve(it.return?.(value) ?? { done: true, value: undefined }),
          ),
      };
    },
  };
}

/**
 * The responses of `source` and the label of the run they belong to, for the judges: a ledger's
 * run label, or for a responses file `responses-` and the first 12 hex digits of its sha256.
 */
export async function responsesOfSource(
  source: ResponseSource,
  bundle: ScoreBundle,
): Promise<{ responses: AsyncIterable<ResponseRecord>; run: string }> {
  const opened = openResponses(source, bundle);
  return {
    responses: opened.responses,
    run: opened.run ?? `responses-${(await sha256File(source.file)).slice(0, 12)}`,
  };
}
