/**
 * `stimkit score`: every response to a bundle's trials, scored by its paradigm's scorer, written
 * as `scores.jsonl`, the CSV tables and `score.json` (written last: its presence means the
 * folder is complete). Same inputs → same bytes: records are ordered by model name, then by the
 * trial's place in the bundle.
 */
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { ensureFolder, relPosix, sha256, sha256File, writeFileAtomic } from '../core/fsio.js';
import { artifactJson } from '../core/json.js';
import { TOOL } from '../core/tool.js';
import { loadScoreBundle, type ScoreBundle } from './bundle.js';
import { COST_FILE, costCsv } from './cost.js';
import { csvText } from './csv.js';
import { SCORES_FILES, SCORES_FORMAT, SCORES_VERSION, type ScoresHeader } from './format.js';
import { metaFor, readModelMeta } from './models.js';
import { SCORERS, scorerFor, tablesOf } from './registry.js';
import { readLedgerResponses } from './ledger.js';
import { readResponsesJsonl } from './responses.js';
import type {
  ModelMeta,
  ParadigmScorer,
  ResponseRecord,
  ScoreInput,
  ScoreRecord,
  TableRow,
} from './types.js';

/** Where the responses come from: a JSONL file, or records already read (a ledger reader). */
export type ResponseSource =
  { kind: 'responses'; file: string } | { kind: 'ledger'; file: string; run?: string };

export interface ScoreOptions {
  bundle: string;
  source: ResponseSource;
  models?: string;
  out: string;
  /** Scorers to use (default: the registry). */
  scorers?: readonly ParadigmScorer[];
  /** The judge ledger of this scoring, whose judge runs `cost.csv` includes (cost.ts). */
  judgeLedger?: string;
}

export interface ScoreResult {
  out: string;
  header: ScoresHeader;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Score responses against records in memory (no files): what `scoreToFolder` and `analyze power` use. */
export function scoreResponses(
  bundle: ScoreBundle,
  responses: readonly ResponseRecord[],
  models: ReadonlyMap<string, ModelMeta>,
  scorers: readonly ParadigmScorer[] = SCORERS,
): { rows: TableRow[]; unscored: Record<string, number> } {
  const prepared = new Map<ParadigmScorer, (input: ScoreInput) => ScoreRecord>();
  const unscored: Record<string, number> = {};
  const rows: TableRow[] = [];
  for (const response of responses) {
    const trial = bundle.trials[bundle.order.get(response.trial_id) ?? -1];
    if (!trial) {
      throw StimkitError.fromProblem({
        code: 'E_SCORE_UNKNOWN_TRIAL',
        message: `response to trial ${response.trial_id}, which the bundle does not hold`,
        fix: 'score the responses against the bundle they were run on',
      });
    }
    const scorer = scorerFor(trial.paradigm, scorers);
    if (!scorer) {
      unscored[trial.paradigm] = (unscored[trial.paradigm] ?? 0) + 1;
      continue;
    }
    let fn = prepared.get(scorer);
    if (!fn) {
      fn = scorer.prepare(bundle);
      prepared.set(scorer, fn);
    }
    const model = metaFor(models, response.model);
    rows.push({ record: fn({ trial, response, model }), trial, model, bundle });
  }
  rows.sort(
    (a, b) =>
      byName(a.model.name, b.model.name) ||
      bundle.order.get(a.trial.id)! - bundle.order.get(b.trial.id)!,
  );
  return { rows, unscored };
}

/** Score a bundle's responses and write the scores folder. */
export async function scoreToFolder(options: ScoreOptions): Promise<ScoreResult> {
  const scorers = options.scorers ?? SCORERS;
  const bundle = await loadScoreBundle(options.bundle);
  let models = new Map<string, ModelMeta>();
  let responses: ResponseRecord[];
  let run: string | null = null;
  if (options.source.kind === 'ledger') {
    const fromLedger = readLedgerResponses(options.source.file, bundle, options.source.run);
    ({ responses, models } = fromLedger);
    run = fromLedger.run;
  } else responses = await readResponsesJsonl(options.source.file, bundle.order);
  if (options.models) models = new Map([...models, ...(await readModelMeta(options.models))]);
  const { rows, unscored } = scoreResponses(bundle, responses, models, scorers);

  const out = options.out;
  await ensureFolder(out);
  const files: ScoresHeader['files'] = [];
  const write = async (file: string, text: string, count: number) => {
    await writeFileAtomic(path.join(out, file), text);
    files.push({ file, rows: count, sha256: sha256(text) });
  };
  await write(
    SCORES_FILES.records,
    rows.map((r) => `${JSON.stringify(r.record)}\n`).join(''),
    rows.length,
  );
  for (const table of tablesOf(scorers)) {
    const mine =
      table.paradigms === 'all'
        ? rows
        : rows.filter((r) => (table.paradigms as readonly string[]).includes(r.trial.paradigm));
    if (mine.length === 0 && table.paradigms !== 'all') continue;
    await write(
      table.file,
      csvText(
        table.columns.map((c) => c.name),
        mine.map((r) => table.columns.map((c) => c.value(r))),
      ),
      mine.length,
    );
  }
  // What the scored run cost per model, judges included (cost.ts).
  if (options.source.kind === 'ledger' && run !== null) {
    const text = costCsv(options.source.file, run, options.judgeLedger ?? null);
    await write(COST_FILE, text, text.split('\n').length - 2);
  }

  const count = (key: (r: TableRow) => string | null) => {
    const m: Record<string, number> = {};
    for (const r of rows) {
      const k = key(r);
      if (k !== null) m[k] = (m[k] ?? 0) + 1;
    }
    return Object.fromEntries(Object.entries(m).sort(([a], [b]) => byName(a, b)));
  };
  const modelNames = [...new Set(rows.map((r) => r.model.name))].sort(byName);
  const study =
    ((await bundle.readJson('bundle.json')) as { study?: { id?: string } }).study?.id ?? null;
  const inputs: ScoresHeader['inputs'] = [
    {
      role: 'bundle',
      file: relPosix(out, path.join(options.bundle, 'manifest-sha256.txt')),
      sha256: bundle.digest,
    },
    {
      role: options.source.kind,
      file: relPosix(out, options.source.file),
      sha256: await sha256File(options.source.file),
    },
  ];
  if (options.models)
    inputs.push({
      role: 'models',
      file: relPosix(out, options.models),
      sha256: await sha256File(options.models),
    });
  const header: ScoresHeader = {
    format: SCORES_FORMAT,
    version: SCORES_VERSION,
    tool: { ...TOOL },
    bundle: { digest: bundle.digest, study },
    inputs,
    params: {
      source: options.source.kind,
      run,
      scorers: Object.fromEntries(scorers.map((s) => [s.name, relativeFiles(s.params ?? {}, out)])),
    },
    counts: {
      records: rows.length,
      simulated: rows.filter((r) => r.record.simulated).length,
      models: modelNames.map((name) => {
        const meta = metaFor(models, name);
        const mine = rows.filter((r) => r.model.name === name);
        return {
          name,
          origin: meta.origin,
          vendor: meta.vendor,
          simulated: mine.some((r) => r.record.simulated),
          records: mine.length,
        };
      }),
      by_paradigm: count((r) => r.trial.paradigm),
      by_reason: count((r) => r.record.reason),
      unscored: Object.fromEntries(Object.entries(unscored).sort(([a], [b]) => byName(a, b))),
    },
    files,
  };
  await writeFileAtomic(path.join(out, SCORES_FILES.header), artifactJson(header));
  return { out, header };
}

/**
 * `params` with every absolute path under a `file` key (e.g. a judge ledger) written relative to
 * the scores folder, as the inputs are: score.json names no absolute path, so the same inputs give
 * the same bytes wherever the folders sit.
 */
function relativeFiles<T>(params: T, out: string): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [
        k,
        k === 'file' && typeof x === 'string' && path.isAbsolute(x) ? relPosix(out, x) : walk(x),
      ]),
    );
  };
  return walk(params) as T;
}
