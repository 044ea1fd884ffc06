/**
 * `stimkit label serve`: the rater web app over a validation sample. One rater per server and per
 * rater file; in review mode, only the items the LLM judges disagree on, with their labels shown.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { startServer, type Running } from './http.js';
import type { UiLang } from './i18n.js';
import { disagreements, judgesByItem, readJudgeLabels, type JudgeLabels } from './judges.js';
import { openLabelSample, type OpenSample } from './load-sample.js';
import type { SampleItem } from './sample-schema.js';
import { judgesOf, labelRoutes } from './serve-routes.js';
import { LabelStore, PRIVATE_FOLDER } from './store.js';

export interface LabelServeOptions {
  sample: string;
  rater: string;
  /**
   * Interface language. Given, it is used and remembered; omitted, the language last chosen on the
   * page (kept in the rater file) is used, else zh.
   */
  lang?: UiLang;
  port: number;
  host?: string;
  /** Bundle folder, when not where the sample says. */
  bundle?: string;
  /** Rater file; default `<sample folder>/<sample name>.labels/<rater>[.review].sqlite`. */
  labels?: string;
  /** Judge labels file (long CSV/JSONL, or the audit's judges.csv): turns on review mode. */
  judges?: string;
  /** Only these judges of the file (all when empty); review needs at least two. */
  judgeNames?: string[];
  token?: string;
}

export interface LabelServer {
  running: Running;
  store: LabelStore;
  opened: OpenSample;
  items: SampleItem[];
  mode: 'label' | 'review';
  close: () => Promise<void>;
}

/** Rater names become file names: letters, digits, dot, dash, underscore. */
const RATER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The default folder of a sample's rater files. */
export function labelsFolder(sampleFile: string): string {
  const abs = path.resolve(sampleFile);
  return path.join(path.dirname(abs), `${path.basename(abs).replace(/\.json$/i, '')}.labels`);
}

/** Make `dir` (and missing parents) 0700, or tighten it to 0700. */
function privateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER });
  chmodSync(dir, PRIVATE_FOLDER);
}

/** The default rater file of `rater` in `mode`. */
export function raterFile(sampleFile: string, rater: string, mode: 'label' | 'review'): string {
  return path.join(
    labelsFolder(sampleFile),
    `${rater}${mode === 'review' ? '.review' : ''}.sqlite`,
  );
}

/** Open the sample, the rater's store (exclusively) and start serving. */
export async function serveLabels(options: LabelServeOptions): Promise<LabelServer> {
  if (!RATER_NAME.test(options.rater)) {
    throw StimkitError.usage(
      'E_LABEL_RATER',
      `Expected a rater name of letters, digits, ".", "-" or "_" (it names the rater's file) but received "${options.rater}".`,
      'pick a --rater name of letters, digits, ".", "-" and "_" only, e.g. --rater rater-1',
    );
  }
  const opened = await openLabelSample(options.sample, options.bundle);
  const mode = options.judges ? 'review' : 'label';
  const { items, judges } = options.judges
    ? await disagreedItems(opened.sample.items, options.judges, options.judgeNames)
    : { items: opened.sample.items, judges: new Map<string, JudgeLabels[]>() };
  const file = options.labels ?? raterFile(options.sample, options.rater, mode);
  const token = sessionToken(file, options.token);
  // Listen first, then take the rater file: a port that is taken leaves no rater file behind.
  // The handler runs only after the URL is printed, when the store is open.
  let store!: LabelStore;
  const handler = labelRoutes({
    opened,
    items,
    judges,
    mode,
    rater: options.rater,
    lang: options.lang,
    token,
    store: () => store,
  });
  const running = await startServer(handler, { port: options.port, host: options.host, token });
  try {
    // The default folder holds every rater's token: the owner's alone, also one made before.
    if (options.labels === undefined) privateFolder(labelsFolder(options.sample));
    store = openRaterStore(file, opened, options, mode, token);
  } catch (err) {
    await running.close();
    throw err;
  }
  return {
    running,
    store,
    opened,
    items,
    mode,
    close: async () => {
      await running.close();
      store.close();
    },
  };
}

/** Review mode: the items the judges of `judgesFile` disagree on, and their labels by item. */
async function disagreedItems(
  all: SampleItem[],
  judgesFile: string,
  judgeNames: string[] = [],
): Promise<{ items: SampleItem[]; judges: Map<string, JudgeLabels[]> }> {
  const rows = await readJudgeLabels(judgesFile, judgeNames);
  const names = [...new Set(rows.map((r) => r.judge))];
  if (names.length < 2) {
    throw StimkitError.fromProblem({
      code: 'E_LABEL_JUDGES',
      file: judgesFile,
      message: `review mode shows where judges disagree, and this file holds ${names.length === 0 ? 'no judge' : `one judge (${names[0]})`}${judgeNames.length ? ' of those chosen with --judge' : ''}`,
      expected: 'labels of at least two judges',
      got: names.join(', ') || 'none',
      fix: 'score with two judges (stimkit score --judge A --judge B) and pass its judges.csv, or choose two with --judge',
    });
  }
  const judges = judgesByItem(rows);
  const items = all.filter((it) => disagreements(judgesOf(judges, it) ?? []).length > 0);
  return { items, judges };
}

/**
 * The session token: given, else the one the rater file keeps, else a new one. Keeping it means a
 * page left open while the server was restarted (on the same port) keeps working, and its unsaved
 * answers go through on its next retry.
 */
function sessionToken(file: string, given: string | undefined): string {
  const previous = LabelStore.peekMeta(file).token;
  return (
    given ??
    (previous && /^[0-9a-f]{48}$/.test(previous) ? previous : randomBytes(24).toString('hex'))
  );
}

/** Take the rater file (exclusively) and remember the token and the language given. */
function openRaterStore(
  file: string,
  opened: OpenSample,
  options: LabelServeOptions,
  mode: 'label' | 'review',
  token: string,
): LabelStore {
  const store = LabelStore.open(
    file,
    {
      sample_sha256: opened.sha256,
      bundle_digest: opened.bundle.digest,
      rater: options.rater,
      mode,
    },
    { exclusive: true },
  );
  store.setMeta('token', token);
  if (options.lang) store.setMeta('lang', options.lang);
  return store;
}
