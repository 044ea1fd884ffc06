/**
 * Results for `stimkit view --scores`: read loosely, since the score stage's formats may grow.
 * Every JSONL line (or CSV row) that has string `trial_id` (or `trial`, as the score stage's
 * files name it) and `model` fields is one response; `response` (or `response_text`, `text`) is
 * its text if present (a scores folder carries none: serve.ts joins it from the ledger), and every other scalar field, up to two levels
 * deep (`judge.d4`), is shown as a label. A folder is read file by file: `*.jsonl` and `*.csv`.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { readCsvObjects } from '../core/csv.js';
import { StimkitError } from '../core/errors.js';
import { readTextFile } from '../core/fsio.js';

export interface ScoreRow {
  trial_id: string;
  model: string;
  response: string | null;
  /** Label name → value as text. */
  labels: Record<string, string>;
  /** File the row came from (its base name). */
  source: string;
  /** sha256 of the text scored (`scores.jsonl` `response_sha256`), null when the scores record none. */
  scored_sha256?: string | null;
  /**
   * Set when the text read now is not the one scored (its sha256 differs, or it is gone): the
   * labels are of the old text. Filled when the text is read (serve.ts).
   */
  changed?: { scored: string; now: string | null };
}

const SKIP = new Set([
  'trial_id',
  'trial',
  'model',
  'response',
  'response_text',
  'text',
  'bundle_digest',
  'bundle',
  'format',
  'version',
  'response_sha256',
]);

function flatten(
  value: Record<string, unknown>,
  prefix: string,
  out: Record<string, string>,
  depth: number,
): void {
  for (const [k, v] of Object.entries(value)) {
    if (depth === 0 && SKIP.has(k)) continue;
    const name = prefix ? `${prefix}.${k}` : k;
    if (v === null || v === undefined || v === '') continue;
    if (typeof v === 'object' && !Array.isArray(v)) {
      if (depth < 1) flatten(v as Record<string, unknown>, name, out, depth + 1);
    } else if (Array.isArray(v)) {
      if (v.every((x) => typeof x !== 'object')) out[name] = v.join(' ');
    } else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
      const s = String(v);
      if (s.length <= 80) out[name] = s;
    }
  }
}

function rowsOf(text: string, file: string): Array<Record<string, unknown>> {
  if (file.toLowerCase().endsWith('.csv')) return readCsvObjects(text, { ragged: false });
  return text
    .split('\n')
    .filter((l) => l.trim().startsWith('{'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

/** Read every response row from a scores file or folder. */
export async function readScores(target: string): Promise<ScoreRow[]> {
  let files: string[];
  try {
    files = (await stat(target)).isDirectory()
      ? (await readdir(target))
          .filter((n) => /\.(jsonl|csv)$/i.test(n))
          .sort()
          .map((n) => path.join(target, n))
      : [target];
  } catch (err) {
    throw StimkitError.fromProblem(
      {
        code: 'E_VIEW_SCORES',
        file: target,
        message: 'no scores file or folder here',
        fix: 'give the folder `stimkit score --out` wrote, or a JSONL file',
      },
      err,
    );
  }
  const rows: ScoreRow[] = [];
  for (const file of files) {
    for (const r of rowsOf(await readTextFile(file, 'E_VIEW_SCORES'), file)) {
      const trial = typeof r.trial_id === 'string' ? r.trial_id : r.trial;
      if (typeof trial !== 'string' || typeof r.model !== 'string' || !trial || !r.model) continue;
      const labels: Record<string, string> = {};
      flatten(r, '', labels, 0);
      const text = [r.response, r.response_text, r.text].find((v) => typeof v === 'string');
      rows.push({
        trial_id: trial,
        model: r.model,
        response: typeof text === 'string' ? text : null,
        labels,
        source: path.basename(file),
        scored_sha256: typeof r.response_sha256 === 'string' ? r.response_sha256 : null,
      });
    }
  }
  return rows;
}

/** True for label values that mean yes. */
export function truthy(v: string | undefined): boolean {
  return v !== undefined && ['true', '1', 'yes', 'y', 't'].includes(v.trim().toLowerCase());
}
