/**
 * `stimkit score`: every response to a bundle's trials, scored by its paradigm's scorer, written
 * as `scores.jsonl`, the CSV tables and `score.json` (written last: its presence means the
 * folder is complete). Same inputs → same bytes: records are ordered by model name, then by the
 * trial's place in the bundle.
 */
import path from 'node:path';
import type { CsvWriteOptions } from '../core/csv.js';
import { StimkitError } from '../core/errors.js';
import { relPosix, sha256File, writeFileAtomic } from '../core/fsio.js';
import { artifactJson } from '../core/json.js';
import { writeOutFolder } from '../core/out-folder.js';
import { TOOL } from '../core/tool.js';
import { loadScoreBundle, type ScoreBundle } from './bundle.js';
import { SCORES_FILES, SCORES_FORMAT, SCORES_VERSION, type ScoresHeader } from './format.js';
import { metaFor, readModelMeta } from './models.js';
import { SCORERS, scorerFor } from './registry.js';
import { openResponses } from './source.js';
import type {
  ModelMeta,
  ParadigmScorer,
  ResponseRecord,
  ScoreInput,
  ScoreRecord,
  TableRow,
} from './types.js';
import { scoresFolder, writeScoreFiles } from './write.js';

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
  /** Write CSV cells as they are, without neutralising spreadsheet formulas (`--csv-raw`). */
  csvRaw?: boolean;
}

export interface ScoreResult {
  out: string;
  header: ScoresHeader;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Scores responses one at a time; `finish` sorts the rows (by model name, then bundle order). */
class Scoring {
  private readonly prepared = new Map<ParadigmScorer, (input: ScoreInput) => ScoreRecord>();
  readonly unscored: Record<string, number> = {};
  private readonly rows: TableRow[] = [];

  constructor(
    private readonly bundle: ScoreBundle,
    private readonly models: ReadonlyMap<string, ModelMeta>,
    private readonly scorers: readonly ParadigmScorer[],
  ) {}

  add(response: ResponseRecord): void {
    const bundle = this.bundle;
    const trial = bundle.trials[bundle.order.get(response.trial_id) ?? -1];
    if (!trial) {
      throw StimkitError.fromProblem({
        code: 'E_SCORE_UNKNOWN_TRIAL',
        message: `response to trial ${response.trial_id}, which the bundle does not hold`,
        fix: 'score the responses against the bundle they were run on',
      });
    }
    const scorer = scorerFor(trial.paradigm, this.scorers);
    if (!scorer) {
      this.unscored[trial.paradigm] = (this.unscored[trial.paradigm] ?? 0) + 1;
      return;
    }
    let fn = this.prepared.get(scorer);
    if (!fn) {
      fn = scorer.prepare(bundle);
      this.prepared.set(scorer, fn);
    }
    const model = metaFor(this.models, response.model);
    this.rows.push({ record: fn({ trial, response, model }), trial, model, bundle });
  }

  finish(): { rows: TableRow[]; unscored: Record<string, number> } {
    const order = this.bundle.order;
    this.rows.sort(
      (a, b) =>
        byName(a.model.name, b.model.name) || order.get(a.trial.id)! - order.get(b.trial.id)!,
    );
    return { rows: this.rows, unscored: this.unscored };
  }
}

/** Score responses against records in memory (no files): what `scoreToFolder` and `analyze power` use. */
export function scoreResponses(
  bundle: ScoreBundle,
  responses: Iterable<ResponseRecord>,
  models: ReadonlyMap<string, ModelMeta>,
  scorers: readonly ParadigmScorer[] = SCORERS,
): { rows: TableRow[]; unscored: Record<string, number> } {
  const scoring = new Scoring(bundle, models, scorers);
  for (const response of responses) scoring.add(response);
  return scoring.finish();
}

/**
 * Score a bundle's responses and write the scores folder. The responses are streamed (only the
 * scores are kept); the folder is built aside and swapped in whole, so a failure leaves an
 * earlier scores folder as it was.
 */
export async function scoreToFolder(options: ScoreOptions): Promise<ScoreResult> {
  const scorers = options.scorers ?? SCORERS;
  const out = path.resolve(options.out);
  const header = await writeOutFolder(out, scoresFolder(scorers), async (tmp) => {
    const bundle = await loadScoreBundle(options.bundle);
    const source = openResponses(options.source, bundle);
    let models = source.models;
    if (options.models) models = new Map([...models, ...(await readModelMeta(options.models))]);
    const scoring = new Scoring(bundle, models, scorers);
    for await (const response of source.responses) scoring.add(response);
    const { rows, unscored } = scoring.finish();
    const csv: CsvWriteOptions = { raw: options.csvRaw ?? false };
    const files = await writeScoreFiles(tmp, rows, scorers, csv);
    const h = await scoresHeader({ options, out, bundle, run: source.run, rows, unscored, files });
    await writeFileAtomic(path.join(tmp, SCORES_FILES.header), artifactJson(h));
    return h;
  });
  return { out: options.out, header };
}

/** `score.json`: the inputs with their hashes, the resolved parameters, the counts, the files. */
async function scoresHeader(c: {
  options: ScoreOptions;
  out: string;
  bundle: ScoreBundle;
  run: string | null;
  rows: readonly TableRow[];
  unscored: Record<string, number>;
  files: ScoresHeader['files'];
}): Promise<ScoresHeader> {
  const { options, out, bundle, rows } = c;
  const scorers = options.scorers ?? SCORERS;
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
  return {
    format: SCORES_FORMAT,
    version: SCORES_VERSION,
    tool: { ...TOOL },
    bundle: { digest: bundle.digest, study },
    inputs,
    params: {
      source: options.source.kind,
      run: c.run,
      csv: options.csvRaw ? 'raw' : 'safe',
      scorers: Object.fromEntries(scorers.map((s) => [s.name, relativeFiles(s.params ?? {}, out)])),
    },
    counts: countsOf(rows, c.unscored),
    files: c.files,
  };
}

function countsOf(
  rows: readonly TableRow[],
  unscored: Record<string, number>,
): ScoresHeader['counts'] {
  const count = (key: (r: TableRow) => string | null) => {
    const m: Record<string, number> = {};
    for (const r of rows) {
      const k = key(r);
      if (k !== null) m[k] = (m[k] ?? 0) + 1;
    }
    return Object.fromEntries(Object.entries(m).sort(([a], [b]) => byName(a, b)));
  };
  const byModel = new Map<string, { meta: ModelMeta; records: number; simulated: boolean }>();
  for (const r of rows) {
    const m = byModel.get(r.model.name) ?? { meta: r.model, records: 0, simulated: false };
    m.records += 1;
    m.simulated ||= r.record.simulated;
    byModel.set(r.model.name, m);
  }
  return {
    records: rows.length,
    simulated: rows.filter((r) => r.record.simulated).length,
    models: [...byModel.keys()].sort(byName).map((name) => {
      const m = byModel.get(name)!;
      return {
        name,
        origin: m.meta.origin,
        vendor: m.meta.vendor,
        simulated: m.simulated,
        records: m.records,
      };
    }),
    by_paradigm: count((r) => r.trial.paradigm),
    by_reason: count((r) => r.record.reason),
    unscored: Object.fromEntries(Object.entries(unscored).sort(([a], [b]) => byName(a, b))),
  };
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
