/**
 * `stimkit label serve`: the rater web app over a validation sample. One rater per server and per
 * rater file; in review mode, only the items the LLM judges disagree on, with their labels shown.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { html } from '../core/html.js';
import { parseChange, parsePrefs } from './api.js';
import { imageFile } from './bundle.js';
import { LABEL_SCRIPT } from './client.js';
import { guidePage } from './guide.js';
import {
  htmlReply,
  json,
  startServer,
  text,
  type Reply,
  type Request,
  type Running,
} from './http.js';
import { isUiLang, WORDS, type UiLang } from './i18n.js';
import { disagreements, judgesByItem, readJudgeLabels, type JudgeLabels } from './judges.js';
import { openLabelSample, type OpenSample } from './load-sample.js';
import { labelPage, shell } from './page.js';
import type { SampleItem } from './sample-schema.js';
import { staticReply } from './static.js';
import { isComplete, LabelStore } from './store.js';

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
  let items = opened.sample.items;
  let judges = new Map<string, JudgeLabels[]>();
  if (options.judges) {
    const rows = await readJudgeLabels(options.judges, options.judgeNames ?? []);
    const names = [...new Set(rows.map((r) => r.judge))];
    if (names.length < 2) {
      throw StimkitError.fromProblem({
        code: 'E_LABEL_JUDGES',
        file: options.judges,
        message: `review mode shows where judges disagree, and this file holds ${names.length === 0 ? 'no judge' : `one judge (${names[0]})`}${options.judgeNames?.length ? ' of those chosen with --judge' : ''}`,
        expected: 'labels of at least two judges',
        got: names.join(', ') || 'none',
        fix: 'score with two judges (stimkit score --judge A --judge B) and pass its judges.csv, or choose two with --judge',
      });
    }
    judges = judgesByItem(rows);
    items = items.filter(
      (it) => disagreements(judges.get(`${it.trial_id}\n${it.model}`) ?? []).length > 0,
    );
  }
  const file = options.labels ?? raterFile(options.sample, options.rater, mode);
  // Listen first, then take the rater file: a port that is taken leaves no rater file behind.
  // The handler runs only after the URL is printed, when the store is open.
  let store!: LabelStore;
  const images = new Set(items.flatMap((i) => i.images));
  const words = () => {
    const lang = store.meta().lang;
    return WORDS[isUiLang(lang) ? lang : (options.lang ?? 'zh')];
  };
  const shortcutsOn = () => store.meta().shortcuts !== 'off';
  const byId = new Map(items.map((it, i) => [it.id, i]));

  const progress = () => {
    const all = store.all();
    return {
      complete: items.filter((it) => isComplete(all.get(it.id))).length,
      total: items.length,
    };
  };
  const itemHref = (i: number) => `/item/${i + 1}`;
  const nextOpen = (from: number): number | null => {
    const all = store.all();
    for (let k = 1; k <= items.length; k++) {
      const i = (from + k) % items.length;
      if (!isComplete(all.get(items[i]!.id))) return i;
    }
    return null;
  };

  const handler = async (req: Request): Promise<Reply | null> => {
    if (req.method === 'GET') {
      const file = staticReply(req.path, { '/static/label.js': LABEL_SCRIPT });
      if (file) return file;
    }
    if (req.method === 'GET' && req.path === '/') {
      const w = words();
      if (items.length === 0)
        return htmlReply(
          shell(
            w,
            w.reviewTitle,
            html`<header class="bar" id="bar"><h1>${w.reviewTitle}</h1></header>`,
            html`<p>${w.noDisagreements}</p>`,
          ),
        );
      const pos = Number(store.meta().position ?? NaN);
      const start =
        Number.isInteger(pos) && pos >= 0 && pos < items.length
          ? pos
          : (nextOpen(items.length - 1) ?? 0);
      return { status: 303, type: 'text/plain', body: '', headers: { Location: itemHref(start) } };
    }
    if (req.method === 'GET' && req.path === '/guide')
      return htmlReply(guidePage(words(), mode, running.token));
    const m = /^\/item\/([1-9][0-9]*)$/.exec(req.path);
    if (req.method === 'GET' && m) {
      const i = Number(m[1]) - 1;
      const item = items[i];
      if (!item) return null;
      store.setPosition(i);
      const open = nextOpen(i);
      const p = progress();
      return htmlReply(
        labelPage({
          words: words(),
          shortcuts: shortcutsOn(),
          mode,
          rater: options.rater,
          token: running.token,
          item,
          index: i + 1,
          total: items.length,
          complete: p.complete,
          answers: store.get(item.id),
          entry: item.entry ? opened.bundle.entries.get(item.entry) : undefined,
          nav: {
            prev: i > 0 ? itemHref(i - 1) : null,
            next: i < items.length - 1 ? itemHref(i + 1) : null,
            open: open === null || open === i ? null : itemHref(open),
          },
          judges: mode === 'review' ? judges.get(`${item.trial_id}\n${item.model}`) : undefined,
        }),
      );
    }
    const img = /^\/img\/([0-9a-f]{64})$/.exec(req.path);
    if (req.method === 'GET' && img) {
      if (!images.has(img[1]!)) return null;
      return {
        status: 200,
        type: 'image/png',
        body: await readFile(imageFile(opened.bundle, img[1]!)),
      };
    }
    if (req.method === 'GET' && req.path === '/api/progress')
      return json({ rater: options.rater, mode, ...progress() });
    if (req.method === 'POST' && req.path === '/api/answer') return saveAnswer(req);
    if (req.method === 'POST' && req.path === '/api/prefs') return savePrefs(req);
    return null;
  };

  async function savePrefs(req: Request): Promise<Reply> {
    let prefs;
    try {
      prefs = parsePrefs(await req.body());
    } catch {
      return text('bad request: not JSON', 400);
    }
    if (!prefs)
      return text('bad request: give {"lang": "zh"|"en"} and/or {"shortcuts": true|false}', 400);
    for (const [k, v] of Object.entries(prefs)) store.setMeta(k, v);
    return json({ ok: true, lang: words().lang, shortcuts: shortcutsOn() });
  }

  async function saveAnswer(req: Request): Promise<Reply> {
    let body: { item?: unknown; field?: unknown; value?: unknown };
    try {
      body = ((await req.body()) ?? {}) as typeof body;
    } catch {
      return text('bad request: not JSON', 400);
    }
    const itemId = String(body.item ?? '');
    if (!byId.has(itemId)) return text(`bad request: unknown item ${itemId}`, 400);
    const change = parseChange(body.field, body.value);
    if (!change) return text('bad request: unknown field or value', 400);
    const answers = store.save(itemId, change);
    return json({ ok: true, answers, complete: isComplete(answers), progress: progress() });
  }

  // The rater file keeps the session token: a page left open while the server was restarted (on
  // the same port) keeps working, and its unsaved answers go through on its next retry.
  const previous = LabelStore.peekMeta(file).token;
  const token =
    options.token ??
    (previous && /^[0-9a-f]{48}$/.test(previous) ? previous : randomBytes(24).toString('hex'));
  const running: Running = await startServer(handler, {
    port: options.port,
    host: options.host,
    token,
  });
  try {
    store = LabelStore.open(
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
