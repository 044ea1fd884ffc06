/**
 * `stimkit export inspect --bundle B --ledger L [--scores S] --out DIR`: the final results of a
 * ledger run as Inspect eval logs (`.eval`, log format version 2), one per study × paradigm ×
 * model, plus `export.json` (the folder's header: inputs with their sha256, the Inspect version
 * followed, every file written). A trial is a sample, its seed or iteration the epoch.
 * docs/formats/inspect.md describes the mapping. Same inputs → same bytes.
 *
 * @example
 * await exportInspect({ bundle: 'demo/bundle', ledger: 'demo/run.ledger.sqlite', out: 'inspect' });
 */
import type { Trial } from '../bundle/format.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { StimkitError } from '../core/errors.js';
import { relPosix, sha256, sha256File, writeFileAtomic } from '../core/fsio.js';
import { artifactJson } from '../core/json.js';
import { headeredFolder, writeOutFolder } from '../core/out-folder.js';
import { TOOL } from '../core/tool.js';
import { openLedger, type LedgerReader, type LedgerRun } from '../ledger/read.js';
import { loadScoreBundle, type ScoreBundle } from '../score/bundle.js';
import {
  EXPORT_FORMAT,
  EXPORT_HEADER,
  EXPORT_VERSION,
  INSPECT_FOLLOWED,
} from './inspect-format.js';
import { InspectLogWriter, type LogSpec } from './inspect-log.js';
import { designOf, sampleIdOf, type Design } from './inspect-design.js';
import { buildSample } from './inspect-sample.js';
import { PieceCache } from './zip.js';
import {
  AUDIT_SCORE_NAMES,
  INSTRUMENT_SCORE_NAMES,
  PRESSURE_SCORE_NAMES,
  readExportScores,
  scoreKey,
  type ExportScores,
} from './inspect-scores.js';

/** What to export. */
export interface ExportInspectOptions {
  bundle: string;
  ledger: string;
  /** A scores folder of the same bundle (and run): its instrument labels and audit dimensions. */
  scores?: string;
  /** The ledger run (default: the latest). */
  run?: string;
  out: string;
}

/** One log written. */
interface ExportedLog {
  file: string;
  model: string;
  paradigm: string;
  samples: number;
  bytes: number;
  sha256: string;
}

/** What `exportInspect` wrote. */
export interface ExportInspectResult {
  out: string;
  digest: string;
  run: string;
  samples: number;
  files: ExportedLog[];
}

/** The log file name of a model × paradigm: the model name made safe, with a hash when it changed. */
function logName(study: string, paradigm: string, model: string): string {
  const safe = model.replace(/[^\w.-]/g, '-');
  return `${study}_${paradigm}_${safe === model ? safe : `${safe}-${sha256(model).slice(0, 8)}`}.eval`;
}

/** Open the ledger run of the bundle; `E_EXPORT_LEDGER_BUNDLE` when it is of another bundle. */
function ledgerRun(reader: LedgerReader, digest: string, label?: string): LedgerRun {
  const run = reader.run(label);
  if (run.bundle_digest !== digest) {
    throw StimkitError.fromProblem({
      code: 'E_EXPORT_LEDGER_BUNDLE',
      file: reader.file,
      message: `the ledger's run "${run.label}" is of another bundle`,
      expected: `bundle ${digest}`,
      got: `bundle ${run.bundle_digest}`,
      fix: 'pass the bundle this ledger ran (--bundle), or the ledger of this bundle (--ledger)',
    });
  }
  return run;
}

/** What the data URLs kept by one export may hold at most (UTF-16 code units). */
const DATA_URL_CACHE_UNITS = 64 << 20;

/**
 * The bundle image with this digest as a data URL, checked against its name (once per export,
 * unless so many images came between two uses that it was evicted: the cache is bounded so that
 * memory does not grow with the number of images in a study).
 */
function imageReader(bundle: ScoreBundle): (digest: string) => Promise<string> {
  const seen = new LRUCache<string, string>({
    maxSize: DATA_URL_CACHE_UNITS,
    sizeCalculation: (url) => Math.max(1, url.length),
  });
  return async (digest) => {
    const known = seen.get(digest);
    if (known !== undefined) return known;
    const file = path.join(bundle.dir, 'data', 'images', `${digest}.png`);
    const bytes = await readFile(file).catch(() => null);
    if (!bytes || sha256(bytes) !== digest) {
      throw StimkitError.fromProblem({
        code: 'E_EXPORT_BUNDLE_IMAGE',
        file,
        message: bytes
          ? 'this image does not match its sha256 name'
          : 'an image a trial shows is missing',
        fix: 'run `stimkit verify` on the bundle',
      });
    }
    const url = `data:image/png;base64,${bytes.toString('base64')}`;
    seen.set(digest, url);
    return url;
  };
}

/** Everything the logs are written from. */
interface Sources {
  bundle: ScoreBundle;
  study: string;
  design: Design;
  reader: LedgerReader;
  run: LedgerRun;
  scores: ExportScores | null;
  providers: Map<string, string>;
  inputs: Record<string, unknown>;
  /** The bundle's images as data URLs, and their deflated pieces (each made once per export). */
  image: (digest: string) => Promise<string>;
  pieces: PieceCache;
}

/** The score names a paradigm's samples can carry. */
function scorersOf(paradigm: string, scores: ExportScores | null): string[] {
  if (!scores) return ['outcome'];
  const own =
    paradigm === 'instrument'
      ? INSTRUMENT_SCORE_NAMES
      : paradigm === 'pressure'
        ? PRESSURE_SCORE_NAMES
        : AUDIT_SCORE_NAMES;
  return ['outcome', ...own];
}

/** A pressure turn's earlier turns, first to last, with the replies `model` gave them. */
function earlierTurns(src: Sources, model: string, trial: Trial) {
  const earlier: Array<{ trial: Trial; reply: string | null }> = [];
  let previous = trial.conversation?.previous ?? null;
  while (previous !== null) {
    const t = src.design.trials.get(previous);
    if (!t) break;
    earlier.unshift({ trial: t, reply: src.reader.resultText(src.run.label, model, t.id) });
    previous = t.conversation?.previous ?? null;
  }
  return earlier;
}

/** Write the logs of one model (one per paradigm it has results in), in the bundle's paradigm order. */
async function writeModelLogs(src: Sources, model: string, dir: string): Promise<ExportedLog[]> {
  const writers = new Map<string, { file: string; w: InspectLogWriter }>();
  const inspectModel = `${src.providers.get(model) ?? 'unknown'}/${model}`;
  try {
    for (const r of src.reader.results({ run: src.run.label, model })) {
      const trial = src.design.trials.get(r.trial_id);
      if (!trial) {
        throw StimkitError.fromProblem({
          code: 'E_EXPORT_UNKNOWN_TRIAL',
          file: src.reader.file,
          field: `results(${model}, ${r.trial_id})`,
          message: 'the ledger has a result for a trial the bundle does not hold',
          fix: 'pass the bundle this ledger ran',
        });
      }
      let g = writers.get(trial.paradigm);
      if (!g) {
        const file = logName(src.study, trial.paradigm, model);
        const spec: LogSpec = {
          study: src.study,
          digest: src.bundle.digest,
          run: src.run,
          paradigm: trial.paradigm,
          model,
          inspectModel,
          sampleIds: src.design.sampleIds.get(trial.paradigm)!,
          epochs: src.design.epochs.get(trial.paradigm)!,
          first: src.design.first.get(trial.paradigm)!,
          scorers: scorersOf(trial.paradigm, src.scores),
          inputs: src.inputs,
        };
        g = { file, w: await InspectLogWriter.open(path.join(dir, file), spec, src.pieces) };
        writers.set(trial.paradigm, g);
      }
      const { sample, summary } = await buildSample(trial, r, {
        id: sampleIdOf(trial),
        epoch: src.design.epoch.get(trial.id)!,
        model: inspectModel,
        polarity: trial.item ? (src.bundle.items.get(trial.item)?.polarity_key ?? null) : null,
        scores: src.scores?.byKey.get(scoreKey(model, trial.id)) ?? {},
        image: src.image,
        earlier: earlierTurns(src, model, trial),
      });
      await g.w.add(sample, summary);
    }
    const out: ExportedLog[] = [];
    for (const paradigm of src.design.paradigms) {
      const g = writers.get(paradigm);
      if (!g) continue;
      writers.delete(paradigm);
      out.push({ file: g.file, model, paradigm, ...(await g.w.close()) });
    }
    return out;
  } finally {
    for (const g of writers.values()) await g.w.abort();
  }
}

/** Open the bundle, the ledger run and the scores, and check that they belong together. */
async function openSources(o: ExportInspectOptions, out: string): Promise<Sources> {
  const bundle = await loadScoreBundle(o.bundle);
  const header = bundle.sealed.header;
  const reader = openLedger(o.ledger);
  try {
    const run = ledgerRun(reader, bundle.digest, o.run);
    const scores = o.scores
      ? await readExportScores(o.scores, bundle.digest, {
          label: run.label,
          ledger: o.ledger,
          results: () => reader.results({ run: run.label }),
        })
      : null;
    const inputs = {
      bundle: {
        file: relPosix(out, path.join(o.bundle, 'manifest-sha256.txt')),
        sha256: bundle.digest,
      },
      ledger: { file: relPosix(out, o.ledger), sha256: await sha256File(o.ledger), run: run.label },
      scores:
        scores && o.scores
          ? { file: relPosix(out, path.join(o.scores, 'score.json')), sha256: scores.sha256 }
          : null,
    };
    const providers = new Map(reader.models(run.label).map((m) => [m.model, m.provider as string]));
    return {
      bundle,
      study: header.study.id,
      design: designOf(bundle),
      reader,
      run,
      scores,
      providers,
      inputs,
      image: imageReader(bundle),
      pieces: new PieceCache(),
    };
  } catch (err) {
    reader.close();
    throw err;
  }
}

const EXPORT_FOLDER = headeredFolder({
  command: 'export inspect',
  header: { file: EXPORT_HEADER, format: EXPORT_FORMAT },
  names: [],
});

/** Write the Inspect logs of a ledger run into `o.out` (a new folder, or one this command wrote). */
export async function exportInspect(o: ExportInspectOptions): Promise<ExportInspectResult> {
  const out = path.resolve(o.out);
  const src = await openSources(o, out);
  try {
    const files = await writeOutFolder(out, EXPORT_FOLDER, async (tmp) => {
      const logs: ExportedLog[] = [];
      for (const model of src.reader.resultModels(src.run.label))
        logs.push(...(await writeModelLogs(src, model, tmp)));
      const header = {
        format: EXPORT_FORMAT,
        version: EXPORT_VERSION,
        tool: TOOL,
        inspect: INSPECT_FOLLOWED,
        bundle: { digest: src.bundle.digest, study: src.study },
        inputs: src.inputs,
        params: { run: src.run.label, scores: src.scores !== null },
        files: logs,
      };
      await writeFileAtomic(path.join(tmp, EXPORT_HEADER), artifactJson(header));
      return logs;
    });
    return {
      out,
      digest: src.bundle.digest,
      run: src.run.label,
      samples: files.reduce((n, f) => n + f.samples, 0),
      files,
    };
  } finally {
    src.reader.close();
  }
}
