/**
 * `stimkit view <bundle> [--scores DIR] [--ledger FILE]`: a read-only browser of a bundle and,
 * with scores, of the responses (text from the ledger score.json names) and their labels. Same
 * guards as the rater app (loopback, Host check, token, Content-Security-Policy); images are served
 * by digest, only those the bundle's trials or variant records name.
 */
import { readFile } from 'node:fs/promises';
import { sha256 } from '../core/fsio.js';
import { imageFile, loadBundle } from '../label/bundle.js';
import { htmlReply, startServer, type Reply, type Request, type Running } from '../label/http.js';
import { staticReply } from '../label/static.js';
import { VIEW_SCRIPT } from './client.js';
import { isSimulated, judgeSimulated } from './dims.js';
import { entriesPage, entryPage, laddersPage, notFoundPage, type ViewData } from './pages.js';
import { readResponseTexts, responseKey, type ResponseTexts } from './responses.js';
import { readScores, type ScoreRow } from './scores.js';
import { trialPage } from './trial.js';
import { filterValues, trialsReply, type ListState } from './trials.js';

export interface ViewOptions {
  bundle: string;
  scores?: string;
  /** The run ledger holding the responses' text (default: the one score.json records). */
  ledger?: string;
  port: number;
  host?: string;
  token?: string;
}

export interface ViewServer {
  running: Running;
  data: ViewData;
  close: () => Promise<void>;
}

/** Merge rows of the same trial × model from several files (labels combined, first text kept). */
function mergeScores(rows: ScoreRow[]): ScoreRow[] {
  const m = new Map<string, ScoreRow>();
  for (const r of rows) {
    const k = `${r.trial_id}\n${r.model}`;
    const old = m.get(k);
    if (!old) m.set(k, { ...r, labels: { ...r.labels } });
    else
      m.set(k, {
        ...old,
        response: old.response ?? r.response,
        scored_sha256: old.scored_sha256 ?? r.scored_sha256,
        labels: { ...old.labels, ...r.labels },
      });
  }
  return [...m.values()];
}

/** What the view's pages are made from, loaded once. */
interface ViewState extends ListState {
  /** Images that may be served: those the bundle's trials or variant records name. */
  images: Set<string>;
  byTrial: Map<string, ScoreRow[]>;
}

/** Load the bundle (and scores) and start serving. */
export async function serveView(options: ViewOptions): Promise<ViewServer> {
  const bundle = await loadBundle(options.bundle);
  const scores = options.scores
    ? mergeScores(await readScores(options.scores)).filter((s) => bundle.trialById.has(s.trial_id))
    : null;
  const texts = options.scores ? await readResponseTexts(options.scores, options.ledger) : null;
  const data: ViewData = {
    bundle,
    scores,
    responses: texts?.source ?? null,
    withText:
      scores && texts ? texts.countTexts(scores.map((s) => responseKey(s.trial_id, s.model))) : 0,
    simulated: {
      responses: scores?.filter(isSimulated).length ?? 0,
      judged: scores?.filter(judgeSimulated).length ?? 0,
    },
  };
  const byTrial = new Map<string, ScoreRow[]>();
  for (const s of scores ?? []) byTrial.set(s.trial_id, [...(byTrial.get(s.trial_id) ?? []), s]);
  const state: ViewState = {
    data,
    bundle,
    scores,
    images: new Set([
      ...bundle.trials.flatMap((t) => t.images),
      ...bundle.variants.map((v) => v.sha256),
    ]),
    values: filterValues(bundle, scores),
    byTrial,
    withTexts: textLoader(texts),
  };
  const running = await startServer((req) => viewReply(state, req), {
    port: options.port,
    host: options.host,
    token: options.token,
  });
  return {
    running,
    data,
    close: async () => {
      await running.close();
      texts?.close();
    },
  };
}

/** Fills in the texts of rows a page shows, each read once; the rest stay on disk. */
function textLoader(texts: ResponseTexts | null): (rows: ScoreRow[]) => Promise<void> {
  const looked = new Set<string>();
  return async (rows) => {
    const missing = rows.filter(
      (s) => s.response === null && !looked.has(responseKey(s.trial_id, s.model)),
    );
    if (!texts || missing.length === 0) return;
    const keys = missing.map((s) => responseKey(s.trial_id, s.model));
    const got = await texts.textsOf(keys);
    missing.forEach((s, i) => {
      s.response = got.get(keys[i]!) ?? null;
      looked.add(keys[i]!);
      // the text read now against the one scored: a differing one is marked on its own
      const now = s.response === null ? null : sha256(s.response);
      if (s.scored_sha256 && now !== s.scored_sha256) s.changed = { scored: s.scored_sha256, now };
    });
  };
}

/** The reply to one request (null: not found). */
async function viewReply(state: ViewState, req: Request): Promise<Reply | null> {
  const { data, bundle } = state;
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const file = staticReply(req.path, { '/static/view.js': VIEW_SCRIPT });
  if (file) return file;
  if (req.path === '/') return htmlReply(entriesPage(data));
  if (req.path === '/ladders') return htmlReply(laddersPage(data));
  const entry = /^\/entry\/([A-Za-z0-9._-]+)$/.exec(req.path);
  if (entry) {
    const e = bundle.entries.get(entry[1]!);
    return htmlReply(e ? entryPage(data, e) : notFoundPage(data, req.path), e ? 200 : 404);
  }
  const trial = /^\/trial\/(t_[0-9a-f]{24})$/.exec(req.path);
  if (trial) {
    const t = bundle.trialById.get(trial[1]!);
    if (!t) return htmlReply(notFoundPage(data, req.path), 404);
    const rows = state.byTrial.get(t.id) ?? [];
    await state.withTexts(rows);
    return htmlReply(trialPage(data, t, rows));
  }
  if (req.path === '/trials') return trialsReply(state, req);
  const img = /^\/img\/([0-9a-f]{64})$/.exec(req.path);
  if (img && state.images.has(img[1]!))
    return { status: 200, type: 'image/png', body: await readFile(imageFile(bundle, img[1]!)) };
  return req.path.startsWith('/img/') ? null : htmlReply(notFoundPage(data, req.path), 404);
}
