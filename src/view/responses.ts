/**
 * The response text behind a scores folder, for `stimkit view --scores`. Scores files name the
 * trial × model but do not carry the text: `score.json` records where the responses came from (a
 * run ledger and its run, or a responses JSONL file), relative to the folder. `--ledger` names
 * the ledger instead (its latest run, or the run `score.json` names).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { readTextFile } from '../core/fsio.js';
import { openLedger } from '../ledger/read.js';
import { parseResponseLine } from '../score/responses.js';

/** Response texts keyed by `trial_id \n model`, and where they came from (null: nothing to read). */
export interface ResponseTexts {
  texts: Map<string, string>;
  source: { kind: 'ledger' | 'responses'; file: string; run: string | null } | null;
}

/** The key of a trial × model in `ResponseTexts.texts`. */
export const responseKey = (trial: string, model: string): string => `${trial}\n${model}`;

interface Header {
  inputs?: Array<{ role?: string; file?: string }>;
  params?: { run?: string | null };
}

async function readHeader(scores: string): Promise<Header | null> {
  const file = path.join(scores, 'score.json');
  if (!statSync(scores).isDirectory() || !existsSync(file)) return null;
  try {
    return JSON.parse(await readTextFile(file, 'E_VIEW_SCORES')) as Header;
  } catch {
    return null;
  }
}

/** Read the texts of the responses a scores folder was made from (or of `ledger`). */
export async function readResponseTexts(scores: string, ledger?: string): Promise<ResponseTexts> {
  const header = await readHeader(scores);
  const run = header?.params?.run ?? undefined;
  const input = header?.inputs?.find((i) => i.role === 'ledger' || i.role === 'responses');
  const kind = ledger ? 'ledger' : (input?.role as 'ledger' | 'responses' | undefined);
  const file = ledger ?? (input?.file ? path.resolve(scores, input.file) : undefined);
  const texts = new Map<string, string>();
  if (!kind || !file) return { texts, source: null };
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
  if (kind === 'ledger') {
    const reader = openLedger(file);
    try {
      const label = ledger && run && !reader.runs().some((r) => r.label === run) ? undefined : run;
      for (const r of reader.results({ run: label }))
        if (typeof r.text === 'string') texts.set(responseKey(r.trial_id, r.model), r.text);
      return { texts, source: { kind, file, run: reader.run(label).label } };
    } finally {
      reader.close();
    }
  }
  for (const line of (await readTextFile(file, 'E_VIEW_RESPONSES')).split('\n')) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const p = parseResponseLine(value);
    if (p.ok && typeof p.row.response === 'string')
      texts.set(responseKey(p.row.trial_id, p.row.model), p.row.response);
  }
  return { texts, source: { kind, file, run: null } };
}
