/**
 * The rater app's routes: the start page, the guide, one page per item, the items' images by
 * digest, and the page's two JSON calls (an answer change, a preference). `serve.ts` opens the
 * sample and the rater file and hands them here.
 */
import { readFile } from 'node:fs/promises';
import type { StimkitError } from '../core/errors.js';
import { html } from '../core/html.js';
import { parseChange, parsePrefs, type Prefs } from './api.js';
import { imageFile } from './bundle.js';
import { LABEL_SCRIPT } from './client.js';
import { guidePage } from './guide.js';
import { htmlReply, json, text, type Handler, type Reply, type Request } from './http.js';
import { isUiLang, WORDS, type UiLang, type Words } from './i18n.js';
import type { JudgeLabels } from './judges.js';
import type { OpenSample } from './load-sample.js';
import { labelPage, shell } from './page.js';
import type { SampleItem } from './sample-schema.js';
import { staticReply } from './static.js';
import { isComplete, type LabelStore } from './store.js';

/** What the routes serve: one rater's items (all, or the disagreements in review) and store. */
export interface LabelSession {
  opened: OpenSample;
  items: SampleItem[];
  /** Judge labels by `trial_id\nmodel` (review mode; empty otherwise). */
  judges: Map<string, JudgeLabels[]>;
  mode: 'label' | 'review';
  rater: string;
  /** The language given on the command line, used when the rater file names none. */
  lang?: UiLang;
  token: string;
  /** The rater's store: opened after the server listens, before any request is handled. */
  store: () => LabelStore;
}

/** The judges' labels of `item`, keyed as {@link LabelSession.judges} is. */
export const judgesOf = (judges: Map<string, JudgeLabels[]>, item: SampleItem) =>
  judges.get(`${item.trial_id}\n${item.model}`);

const itemHref = (i: number) => `/item/${i + 1}`;

/** The request handler of the rater app over `session`. */
export function labelRoutes(session: LabelSession): Handler {
  const { items } = session;
  const images = new Set(items.flatMap((i) => i.images));
  const byId = new Map(items.map((it, i) => [it.id, i]));
  const state = sessionState(session);

  return async (req: Request): Promise<Reply | null> => {
    if (req.method === 'GET') {
      const file = staticReply(req.path, { '/static/label.js': LABEL_SCRIPT });
      if (file) return file;
      if (req.path === '/') return startPage(session, state);
      if (req.path === '/guide')
        return htmlReply(guidePage(state.words(), session.mode, session.token));
      const m = /^\/item\/([1-9][0-9]*)$/.exec(req.path);
      if (m) return itemPage(session, state, Number(m[1]) - 1);
      const img = /^\/img\/([0-9a-f]{64})$/.exec(req.path);
      if (img) {
        if (!images.has(img[1]!)) return null;
        const body = await readFile(imageFile(session.opened.bundle, img[1]!));
        return { status: 200, type: 'image/png', body };
      }
      if (req.path === '/api/progress')
        return json({ rater: session.rater, mode: session.mode, ...state.progress() });
    }
    if (req.method === 'POST' && req.path === '/api/answer')
      return saveAnswer(session, state, byId, req);
    if (req.method === 'POST' && req.path === '/api/prefs') return savePrefs(session, state, req);
    return null;
  };
}

/** What the routes read from the rater file on every request. */
interface SessionState {
  words: () => Words;
  shortcutsOn: () => boolean;
  progress: () => { complete: number; total: number };
  /** The first item after `from` (wrapping) that is not complete, or null when all are. */
  nextOpen: (from: number) => number | null;
}

function sessionState(session: LabelSession): SessionState {
  const { items, store } = session;
  return {
    words: () => {
      const lang = store().meta().lang;
      return WORDS[isUiLang(lang) ? lang : (session.lang ?? 'zh')];
    },
    shortcutsOn: () => store().meta().shortcuts !== 'off',
    progress: () => {
      const all = store().all();
      return {
        complete: items.filter((it) => isComplete(all.get(it.id))).length,
        total: items.length,
      };
    },
    nextOpen: (from) => {
      const all = store().all();
      for (let k = 1; k <= items.length; k++) {
        const i = (from + k) % items.length;
        if (!isComplete(all.get(items[i]!.id))) return i;
      }
      return null;
    },
  };
}

/** `/`: to the item last shown, else the first open one; in review with nothing to show, a note. */
function startPage(session: LabelSession, state: SessionState): Reply {
  const { items } = session;
  const w = state.words();
  if (items.length === 0)
    return htmlReply(
      shell(
        w,
        w.reviewTitle,
        html`<header class="bar" id="bar"><h1>${w.reviewTitle}</h1></header>`,
        html`<p>${w.noDisagreements}</p>`,
      ),
    );
  const pos = Number(session.store().meta().position ?? NaN);
  const start =
    Number.isInteger(pos) && pos >= 0 && pos < items.length
      ? pos
      : (state.nextOpen(items.length - 1) ?? 0);
  return { status: 303, type: 'text/plain', body: '', headers: { Location: itemHref(start) } };
}

/** `/item/<n>`: the page of item `i` (0-based), remembered as the rater's position. */
function itemPage(session: LabelSession, state: SessionState, i: number): Reply | null {
  const { items, store, mode } = session;
  const item = items[i];
  if (!item) return null;
  store().setPosition(i);
  const open = state.nextOpen(i);
  const p = state.progress();
  return htmlReply(
    labelPage({
      words: state.words(),
      shortcuts: state.shortcutsOn(),
      mode,
      rater: session.rater,
      token: session.token,
      item,
      index: i + 1,
      total: items.length,
      complete: p.complete,
      answers: store().get(item.id),
      entry: item.entry ? session.opened.bundle.entries.get(item.entry) : undefined,
      nav: {
        prev: i > 0 ? itemHref(i - 1) : null,
        next: i < items.length - 1 ? itemHref(i + 1) : null,
        open: open === null || open === i ? null : itemHref(open),
      },
      judges: mode === 'review' ? judgesOf(session.judges, item) : undefined,
      packs: session.opened.bundle.packs,
    }),
  );
}

/** `POST /api/prefs`: store the interface language and/or the shortcuts switch. */
async function savePrefs(session: LabelSession, state: SessionState, req: Request) {
  let prefs: Prefs | null;
  try {
    prefs = parsePrefs(await req.body());
  } catch {
    return text('bad request: not JSON', 400);
  }
  if (!prefs)
    return text('bad request: give {"lang": "zh"|"en"} and/or {"shortcuts": true|false}', 400);
  if (prefs.lang) session.store().setMeta('lang', prefs.lang);
  if (prefs.shortcuts) session.store().setMeta('shortcuts', prefs.shortcuts);
  return json({ ok: true, lang: state.words().lang, shortcuts: state.shortcutsOn() });
}

/** `POST /api/answer`: save one answer change of a known item. */
async function saveAnswer(
  session: LabelSession,
  state: SessionState,
  byId: Map<string, number>,
  req: Request,
): Promise<Reply> {
  let body: { item?: unknown; field?: unknown; value?: unknown };
  try {
    body = (await req.body()) ?? {};
  } catch {
    return text('bad request: not JSON', 400);
  }
  // Item ids are strings; anything else is shown as JSON in the refusal.
  const itemId = typeof body.item === 'string' ? body.item : JSON.stringify(body.item ?? null);
  if (!byId.has(itemId)) return text(`bad request: unknown item ${itemId}`, 400);
  const change = parseChange(body.field, body.value);
  if (!change) return text('bad request: unknown field or value', 400);
  let answers;
  try {
    answers = session.store().save(itemId, change);
  } catch (err) {
    // a strategy (DT) saved before its D4 = TRUE: the page resends it once D4 is saved
    if ((err as StimkitError).code !== 'E_LABEL_DT_WITHOUT_D4') throw err;
    return text(`conflict: ${(err as StimkitError).message}`, 409);
  }
  return json({ ok: true, answers, complete: isComplete(answers), progress: state.progress() });
}
