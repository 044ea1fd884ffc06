/**
 * `stimkit score`: every response to a bundle's trials, scored by its paradigm's scorer, written
 * as `scores.jsonl`, the CSV tables and `score.json` (written last: its presence means the
 * folder is complete). Same inputs → same bytes: records are ordered by model name, then by the
 * trial's place in the bundle.
 */
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { relPosix, sha256, sha256File, writeFileAtomic } from '../core/fsio.js';
import { artifactJson } from '../core/json.js';
import { writeOutFolder } from '../core/out-folder.js';
import { TOOL } from '../core/tool.js';
import { blockFields } from './block-provenance.js';
import { loadScoreBundle, type ScoreBundle } from './bundle.js';
import { COST_FILE, costCsv } from './cost.js';
import { SCORES_FILES, SCORES_FORMAT, SCORES_VERSION, type ScoresHeader } from './format.js';
import { metaFor, readModelMeta } from './models.js';
import { SCORERS, scorerFor } from './registry.js';
import { countNotComputed, notComputed, type NotComputed } from './not-computed.js';
import { openResponses } from './source.js';
import { groupedCounts, readGroup, startGrouped } from './grouped.js';
import { scorerParams } from './scorer-params.js';
import { ReasoningCounts } from './reasoning-counts.js';
import { settleSuppression, type ReasoningParse } from './reasoning.js';
import type {
  ModelMeta,
  ParadigmScorer,
  ResponseRecord,
  ScoreInput,
  ScoreRecord,
  TableRow,
} from './types.js';
import { ScoreWriter, scoresFolder } from './write.js';

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
  /** Write CSV cells as they are, without neutralising spreadsheet formulas (`--csv-raw`). */
  csvRaw?: boolean;
}

export interface ScoreResult {
  out: string;
  header: ScoresHeader;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Scores responses one at a time, keeping the counts score.json reports; `drain` hands over the
 * rows scored since the last drain, sorted (by model name, then bundle order).
 */
class Scoring {
  private readonly prepared = new Map<ParadigmScorer, (input: ScoreInput) => ScoreRecord>();
  private readonly unknownModels = new Map<string, ModelMeta>();
  private rows: TableRow[] = [];
  private readonly counts = {
    records: 0,
    simulated: 0,
    models: new Map<string, { meta: ModelMeta; records: number; simulated: boolean }>(),
    by_paradigm: new Map<string, number>(),
    by_reason: new Map<string, number>(),
    unscored: new Map<string, number>(),
    notComputed: new Map() as NotComputed,
    reasoning: new ReasoningCounts(),
  };

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
      bump(this.counts.unscored, trial.paradigm);
      return;
    }
    let fn = this.prepared.get(scorer);
    if (!fn) {
      fn = scorer.prepare(bundle);
      this.prepared.set(scorer, fn);
    }
    const model = this.meta(response.model);
    const record = {
      ...fn({ trial, response, model }),
      outcome: response.outcome ?? null,
      route: response.route ?? null,
      route_provider: response.route_provider ?? null,
      response_sha256: response.response === null ? null : sha256(response.response),
      ...blockFields(response),
      reasoning_visibility: response.reasoning_visibility ?? null,
      reasoning_tokens: response.reasoning_tokens ?? null,
    };
    const row = { record, trial, model, bundle };
    this.rows.push(row);
    this.count(row);
  }

  /** One shared description per model (a fresh one per response would cost memory). */
  private meta(name: string): ModelMeta {
    const known = this.models.get(name) ?? this.unknownModels.get(name);
    if (known) return known;
    const meta = metaFor(this.models, name);
    this.unknownModels.set(name, meta);
    return meta;
  }

  private count(r: TableRow): void {
    const c = this.counts;
    c.records += 1;
    if (r.record.simulated) c.simulated += 1;
    const m = c.models.get(r.model.name) ?? { meta: r.model, records: 0, simulated: false };
    m.records += 1;
    m.simulated ||= r.record.simulated;
    c.models.set(r.model.name, m);
    bump(c.by_paradigm, r.trial.paradigm);
    if (r.record.reason !== null) bump(c.by_reason, r.record.reason);
    countNotComputed(c.notComputed, r.record);
  }

  /**
   * The rows scored since the last drain, sorted; they are no longer kept here. A drain holds
   * whole models (a source's group is one model, or every model), so the flags that look at a
   * model's other trials are settled here.
   */
  drain(): TableRow[] {
    const order = this.bundle.order;
    const rows = this.rows.sort(
      (a, b) =>
        byName(a.model.name, b.model.name) || order.get(a.trial.id)! - order.get(b.trial.id)!,
    );
    this.rows = [];
    settleSuppression(
      rows.map((r) => ({
        model: r.model.name,
        trial: r.trial,
        reasoning: (r.record.parse as { reasoning?: ReasoningParse }).reasoning ?? null,
      })),
    );
    for (const r of rows) this.counts.reasoning.add(r);
    return rows;
  }

  /** `score.json`'s counts of everything scored. */
  summary(): ScoresHeader['counts'] {
    const c = this.counts;
    const sorted = (m: Map<string, number>) =>
      Object.fromEntries([...m].sort(([a], [b]) => byName(a, b)));
    return {
      records: c.records,
      simulated: c.simulated,
      models: [...c.models.keys()].sort(byName).map((name) => {
        const m = c.models.get(name)!;
        const { origin, vendor } = m.meta;
        return { name, origin, vendor, simulated: m.simulated, records: m.records };
      }),
      by_paradigm: sorted(c.by_paradigm),
      by_reason: sorted(c.by_reason),
      unscored: sorted(c.unscored),
      ...notComputed(c.notComputed),
      ...c.reasoning.summary(),
    };
  }

  get unscored(): Record<string, number> {
    return this.summary().unscored;
  }
}

const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

/** Score responses against records in memory (no files): what `analyze power` uses. */
export function scoreResponses(
  bundle: ScoreBundle,
  responses: Iterable<ResponseRecord>,
  models: ReadonlyMap<string, ModelMeta>,
  scorers: readonly ParadigmScorer[] = SCORERS,
): { rows: TableRow[]; unscored: Record<string, number> } {
  const scoring = new Scoring(bundle, models, scorers);
  for (const response of responses) scoring.add(response);
  return { rows: scoring.drain(), unscored: scoring.unscored };
}

/**
 * Score a bundle's responses and write the scores folder. The responses are streamed, a group at
 * a time (a ledger's models one by one, in name order), and each group's scores are written as
 * soon as it is scored, so memory holds one group, whatever the size of the ledger. The folder is
 * built aside and swapped in whole: a failure leaves an earlier scores folder as it was.
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
    const csv = { raw: options.csvRaw ?? false };
    const grouped = startGrouped(scorers, bundle);
    const writer = new ScoreWriter(
      tmp,
      scorers,
      csv,
      grouped.flatMap((g) => g.tables),
    );
    for await (const group of source.groups()) {
      for await (const response of group) scoring.add(response);
      const rows = scoring.drain();
      const tables = readGroup(grouped, rows, source);
      await writer.add(rows);
      for (const [file, cells] of tables) await writer.addGrouped(file, cells);
    }
    // What the scored run cost per model, judges included (cost.ts).
    if (options.source.kind === 'ledger' && source.run !== null) {
      const text = costCsv(options.source.file, source.run, options.judgeLedger ?? null, csv);
      await writer.addFile(COST_FILE, text, text.split('\n').length - 2);
    }
    const files = await writer.finish();
    const counts = { ...scoring.summary(), ...groupedCounts(grouped) };
    const h = await scoresHeader({ options, out, bundle, run: source.run, counts, files });
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
  counts: ScoresHeader['counts'];
  files: ScoresHeader['files'];
}): Promise<ScoresHeader> {
  const { options, out, bundle } = c;
  const scorers = options.scorers ?? SCORERS;
  const study = bundle.sealed.header.study.id;
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
  for (const p of bundle.packs)
    inputs.push({
      role: 'language_pack',
      file: relPosix(out, path.join(options.bundle, p.ref)),
      sha256: p.sha256,
    });
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
      scorers: scorerParams(scorers, bundle, out),
    },
    counts: c.counts,
    files: c.files,
  };
}
