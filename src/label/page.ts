/**
 * The label screen, rendered on the server: one trial per screen. A column that stays in view
 * while the questions are answered (on wide screens) holds the image (zoomable to full
 * resolution), the prompt and the response verbatim — held in view only while the whole of it fits
 * the window; a longer one stays in the page's own flow, with a "more below" cue until its end is
 * seen; beside it, the subject's ground truth, the
 * five questions with their guidance, the DT follow-up when D4 is TRUE, a note and — in review
 * mode only — the judges' labels with their disagreements marked. A simulated response is under a
 * SIMULATED banner. Nothing about other raters is
 * ever shown. The page's script is a file (/static/label.js); its settings are a JSON data block.
 */
import { html, type Html } from '../core/html.js';
import { langDir } from '../languages/lang-tag.js';
import type { LoadedPack } from '../languages/load.js';
import type { BundleEntry } from './bundle.js';
import type { Words } from './i18n.js';
import type { JudgeLabels } from './judges.js';
import { guessNote, HEAD_LINKS, jsonData, pageLang, textLang, textLangAttrs } from './markup.js';
import { groundTruth, judgesTable, langSwitch, questions, shortcutsParts } from './page-parts.js';
import type { SampleItem } from './sample-schema.js';
import type { ItemAnswers } from './store.js';

export interface LabelScreen {
  words: Words;
  mode: 'label' | 'review';
  rater: string;
  token: string;
  item: SampleItem;
  /** 1-based position and number of screens. */
  index: number;
  total: number;
  complete: number;
  answers: ItemAnswers;
  entry: BundleEntry | undefined;
  nav: { prev: string | null; next: string | null; open: string | null };
  judges?: JudgeLabels[];
  /** Single-key shortcuts on (the rater can turn them off; remembered in the rater file). */
  shortcuts: boolean;
  /** The study's own language packs (the bundle's), read before the shipped ones for `lang`/`dir`. */
  packs: readonly LoadedPack[];
}

/** The page shell shared by the rater app's screens. */
export function shell(w: Words, title: string, header: Html, body: Html, tail?: Html): Html {
  return html`<!doctype html>
<html lang="${pageLang(w.lang)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>${HEAD_LINKS}</head>
<body><a class="skip" href="#main">${w.skip}</a>${header}<main id="main">${body}</main>${tail ?? null}</body></html>`;
}

function navLink(href: string | null, label: string, key: string, primary = false): Html {
  return html`<a class="button${primary ? ' primary' : ''}" href="${href ?? '#'}"${href ? null : html` aria-disabled="true" tabindex="-1"`}>${label} <kbd>${key}</kbd></a>`;
}

function header(s: LabelScreen, title: string): Html {
  const w = s.words;
  return html`<header class="bar" id="bar"><h1>${title}</h1>
<span>${w.rater}: <strong>${s.rater}</strong></span>
<span>${w.item} ${s.index} ${w.of} ${s.total}</span>
<span class="progress"><label for="progress">${w.complete}</label><progress id="progress" value="${s.complete}" max="${s.total}"></progress><span id="progress-text">${s.complete} / ${s.total}</span></span>
<span id="status" role="status" aria-live="polite"></span>${langSwitch(w)}<a href="/guide">${w.guide}</a></header>`;
}

/** The column kept in view: image, prompt, response. */
function viewColumn(s: LabelScreen): Html {
  const { words: w, item } = s;
  const image = item.images.length
    ? item.images.map(
        (
          d,
        ) => html`<div class="imgbox" id="imgbox" tabindex="0" role="button" aria-label="${w.zoomHint}" title="${w.zoomHint}"><img src="/img/${d}" alt="${w.image}"></div>
<p class="meta">${w.zoomHint} <a href="/img/${d}" target="_blank" rel="noopener">${w.openFull}</a></p>`,
      )
    : html`<p>${w.textOnly}</p>`;
  const paradigm = w.paradigms[item.paradigm] ?? item.paradigm;
  const lang = w.langNames[item.lang] ?? item.lang;
  const said = textLang(item.response, item.lang, s.packs);
  const meta = html`<p class="meta">${w.trialMeta} <code>${item.id}</code> · <bdi>${paradigm}</bdi> · <bdi>${lang}</bdi>${item.variant ? html` · <bdi>${item.variant}</bdi>` : null}</p>`;
  return html`<div class="col-view"><section class="panel" aria-labelledby="img-h"><h2 id="img-h">${w.image}</h2>${image}${meta}</section>
<section class="panel" aria-labelledby="p-h"><h2 id="p-h">${w.prompt}</h2><pre class="verbatim"${langDir(item.lang, s.packs)} id="prompt">${item.prompt}</pre></section>
<section class="panel" aria-labelledby="r-h"><h2 id="r-h">${w.response}</h2><pre class="verbatim"${textLangAttrs(said)} id="response">${item.response}</pre>${guessNote(said, w.langGuessed)}<span id="response-end"></span><p class="more" id="more" hidden>${w.moreBelow}</p></section></div>`;
}

/** The column of answers: ground truth, judges (review), questions, note, trial navigation. */
function answerColumn(s: LabelScreen): Html {
  const w = s.words;
  return html`<div class="col-answer"><section class="panel" aria-labelledby="gt-h"><h2 id="gt-h">${w.groundTruth}</h2>${groundTruth(w, s.entry, s.item.lang, s.packs)}</section>
${s.judges && s.judges.length ? judgesTable(w, s.judges) : null}
<form class="panel" id="answers">${questions(w, s.answers)}
<label for="note"><strong>${w.note}</strong> <kbd>E</kbd></label>
<textarea id="note" name="note" placeholder="${w.notePlaceholder}">${s.answers.note}</textarea></form>
<nav class="items" aria-label="${w.trialsNav}">${navLink(s.nav.prev, w.prev, '←')}${navLink(s.nav.next, w.next, '→', true)}${navLink(s.nav.open, w.nextOpen, 'U')}</nav></div>`;
}

/** The HTML of one label (or review) screen. */
export function labelPage(s: LabelScreen): Html {
  const w = s.words;
  const title = s.mode === 'review' ? w.reviewTitle : w.appTitle;
  const done = s.complete === s.total ? html`<p class="done" role="note">${w.allDone}</p>` : null;
  const sim = s.item.simulated
    ? html`<p class="banner sim" role="note" id="simulated"><strong>${w.simulated}</strong> · ${w.simulatedText}</p>`
    : null;
  const body = html`${sim}${done}<div class="label-grid">${viewColumn(s)}${answerColumn(s)}</div><div id="hint" role="status" aria-live="polite"></div>`;
  const cfg = {
    token: s.token,
    item: s.item.id,
    nav: s.nav,
    shortcuts: s.shortcuts,
    words: { saved: w.saved, saving: w.saving, notSaved: w.notSaved, naNotHere: w.naNotHere },
  };
  const tail = html`${shortcutsParts(w, s.shortcuts)}${jsonData('cfg', cfg)}<script src="/static/label.js"></script>`;
  return shell(w, title, header(s, title), body, tail);
}
