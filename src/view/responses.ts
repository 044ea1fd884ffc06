/**
 * The response text behind a scores folder, for `stimkit view --scores`. Scores files name the
 * trial × model but do not carry the text: `score.json` records where the responses came from (a
 * run ledger and its run, or a responses JSONL file), relative to the folder. `--ledger` names
 * the ledger instead (its latest run, or the run `score.json` names).
 *
 * score.json also records each input's sha256: a file that no longer has it is reported (`changed`),
 * since its texts may not be the ones the labels were given to.
 *
 * Texts are read when a page shows them, never all at once: from a ledger by key, from a
 * responses file through an index of where each line starts (built by streaming the file once).
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { sha256File } from '../core/fsio.js';
import { openLedger, type LedgerReader } from '../ledger/read.js';
import type { ScoresHeader } from '../score/format.js';
import { openScores } from '../score/read.js';
import { parseResponseLine } from '../score/responses.js';

/** Where the texts come from, and a way to read those of the rows a page shows. */
export interface ResponseTexts {
  source: TextSource | null;
  /** The texts of these trial × model keys (`responseKey`) that have one. */
  textsOf: (keys: readonly string[]) => Promise<Map<string, string>>;
  /** How many of these keys have a text (none is kept in memory). */
  countTexts: (keys: readonly string[]) => number;
  close: () => void;
}

/** Where the texts come from, and whether the file is still the one the scores were made from. */
export interface TextSource {
  kind: 'ledger' | 'responses';
  file: string;
  run: string | null;
  /**
   * The sha256 score.json recorded for this file and the file's sha256 now, when they differ: a
   * text may have been edited (or added) since it was scored, so the labels shown beside it may
   * be of another text. Null when they agree or score.json recorded none.
   */
  changed: { recorded: string; now: string } | null;
}

/** The key of a trial × model in `ResponseTexts.textsOf`. */
export const responseKey = (trial: string, model: string): string => `${trial}\n${model}`;

const NONE: ResponseTexts = {
  source: null,
  textsOf: () => Promise.resolve(new Map()),
  countTexts: () => 0,
  close: () => {},
};

/** The scores folder's header (`openScores`), or null when there is no usable one. */
async function readHeader(scores: string): Promise<ScoresHeader | null> {
  if (!statSync(scores).isDirectory() || !existsSync(path.join(scores, 'score.json'))) return null;
  try {
    return (await openScores(scores, 'E_VIEW_SCORES')).header;
  } catch {
    return null;
  }
}

/** Open the responses a scores folder was made from (or `ledger`), to read texts on demand. */
export async function readResponseTexts(scores: string, ledger?: string): Promise<ResponseTexts> {
  const header = await readHeader(scores);
  const run = header?.params?.run ?? undefined;
  const input = header?.inputs?.find((i) => i.role === 'ledger' || i.role === 'responses');
  const kind = ledger ? 'ledger' : input?.role;
  const file = ledger ?? (input?.file ? path.resolve(scores, input.file) : undefined);
  if (!kind || !file) return NONE;
  if (!existsSync(file)) {
    throw StimkitError.fromProblem({
      code: 'E_VIEW_RESPONSES',
      file,
      message: `the ${kind === 'ledger' ? 'run ledger' : 'responses file'} the scores were made from is not here (named in ${path.join(scores, 'score.json')})`,
      fix:
        kind === 'ledger'
          ? 'give the ledger with --ledger FILE'
          : 'put the responses file back where score.json says, or give a ledger with --ledger FILE',
    });
  }
  const recorded = header?.inputs?.find((i) => i.role === kind)?.sha256;
  const now = recorded ? await sha256File(file) : null;
  const changed = recorded && now && now !== recorded ? { recorded, now } : null;
  if (kind === 'ledger') {
    const reader = openLedger(file);
    try {
      if (run) requireRun(reader, run, path.join(scores, 'score.json'));
      return ledgerTexts(reader, reader.run(run).label, changed);
    } catch (err) {
      reader.close();
      throw err;
    }
  }
  return fileTexts(file, await indexResponses(file), changed);
}

/** The run the scores were made from must be in the ledger given: the texts of another run would be the wrong ones. */
function requireRun(reader: LedgerReader, run: string, header: string): void {
  const runs = reader.runs().map((r) => r.label);
  if (runs.includes(run)) return;
  throw StimkitError.fromProblem({
    code: 'E_VIEW_RESPONSES',
    file: reader.file,
    message: `this ledger holds no run "${run}", the run the scores were made from (named in ${header})`,
    expected: `a ledger with run "${run}"`,
    got: runs.length ? `runs ${runs.map((r) => `"${r}"`).join(', ')}` : 'no run',
    fix: `give the ledger run "${run}" was written to with --ledger FILE, or score this ledger's run and view that scores folder`,
  });
}

function ledgerTexts(
  reader: LedgerReader,
  run: string,
  changed: TextSource['changed'],
): ResponseTexts {
  const textOf = (k: string) => {
    const [trial, model] = k.split('\n') as [string, string];
    return reader.resultText(run, model, trial);
  };
  return {
    source: { kind: 'ledger', file: reader.file, run, changed },
    countTexts: (keys) => keys.filter((k) => typeof textOf(k) === 'string').length,
    // A ledger read is synchronous; the executor turns its throw into a rejection.
    textsOf: (keys) =>
      new Promise((resolve) => {
        const out = new Map<string, string>();
        for (const k of keys) {
          const text = textOf(k);
          if (typeof text === 'string') out.set(k, text);
        }
        resolve(out);
      }),
    close: () => reader.close(),
  };
}

/** Where each line of a responses file with a text starts, and its length, by key. */
async function indexResponses(file: string): Promise<Map<string, [number, number]>> {
  const index = new Map<string, [number, number]>();
  let rest = Buffer.alloc(0);
  let start = 0; // file offset of `rest`
  const line = (bytes: Buffer, at: number) => {
    try {
      const p = parseResponseLine(JSON.parse(bytes.toString('utf8')));
      if (p.ok && typeof p.row.response === 'string')
        index.set(responseKey(p.row.trial_id, p.row.model), [at, bytes.length]);
    } catch {
      // not a JSON line: nothing to show (score refused such a file; this reads loosely)
    }
  };
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    const buf = rest.length ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer);
    // a UTF-8 byte order mark before the first line is not part of it
    let from = start === 0 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
    for (let nl = buf.indexOf(10); nl >= 0; nl = buf.indexOf(10, from)) {
      line(buf.subarray(from, nl), start + from);
      from = nl + 1;
    }
    rest = Buffer.from(buf.subarray(from));
    start += from;
  }
  if (rest.length) line(rest, start);
  return index;
}

function fileTexts(
  file: string,
  index: Map<string, [number, number]>,
  changed: TextSource['changed'],
): ResponseTexts {
  return {
    source: { kind: 'responses', file, run: null, changed },
    countTexts: (keys) => keys.filter((k) => index.has(k)).length,
    textsOf: async (keys) => {
      const out = new Map<string, string>();
      const wanted = keys.filter((k) => index.has(k));
      if (wanted.length === 0) return out;
      const handle = await open(file, 'r');
      try {
        for (const k of wanted) {
          const [at, length] = index.get(k)!;
          const { buffer } = await handle.read(Buffer.alloc(length), 0, length, at);
          const p = parseResponseLine(JSON.parse(buffer.toString('utf8')));
          if (p.ok && typeof p.row.response === 'string') out.set(k, p.row.response);
        }
      } finally {
        await handle.close();
      }
      return out;
    },
    close: () => {},
  };
}
