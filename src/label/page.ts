/**
 * The label screen, rendered on the server: one trial per screen — the image (zoomable to full
 * resolution), the subject ground truth, the prompt and the response verbatim, the five questions
 * with their guidance, the DT follow-up when D4 is TRUE, a note — and, in review mode only, the
 * judges' labels with their disagreements marked. Nothing about other raters is ever shown.
 */
import { CSS } from './assets.js';
import { inLang, type BundleEntry } from './bundle.js';
import { LABEL_SCRIPT } from './client.js';
import { esc } from './http.js';
import type { Words } from './i18n.js';
import type { JudgeLabels } from './judges.js';
import type { SampleItem } from './sample-schema.js';
import { DIMENSIONS, type ItemAnswers } from './store.js';

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
}

/** The page shell shared by the rater app's screens. */
export function shell(
  lang: string,
  title: string,
  header: string,
  body: string,
  script = '',
): string {
  return `<!doctype html>
<html lang="${lang === 'zh' ? 'zh-Hans' : 'en'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${CSS}</style></head>
<body><a class="skip" href="#main">Skip to content</a>${header}<main id="main">${body}</main>${script}</body></html>`;
}

function groundTruth(w: Words, entry: BundleEntry | undefined, trialLang: string): string {
  if (!entry) return `<p>${esc(w.noEntry)}</p>`;
  const title = inLang(entry.title, w.lang);
  const other = inLang(entry.title, trialLang);
  const p = entry.provenance ?? {};
  const context = [
    entry.notes ?? p.notes,
    [p.credit, p.archive, p.date_taken].filter(Boolean).join(' · '),
  ].filter(Boolean);
  const facts = entry.expected_facts
    .map((f) => {
      const main = String(f[w.lang] ?? f.en ?? '');
      const alt =
        trialLang !== w.lang && typeof f[trialLang] === 'string'
          ? `<span class="alt" lang="${esc(trialLang)}">${esc(f[trialLang])}</span>`
          : '';
      return `<li>${esc(main)}${alt}</li>`;
    })
    .join('');
  return `<p><strong>${esc(w.titleLabel)}:</strong> ${esc(title)}${other !== title ? ` <span class="meta" lang="${esc(trialLang)}">(${esc(other)})</span>` : ''}</p>
<p><strong>${esc(w.context)}:</strong> ${context.map((c) => esc(c)).join('<br>')}</p>
<p><strong>${esc(w.expectedFacts)}</strong> <span class="meta">${esc(w.factsBasis)}</span></p>
<ul class="facts">${facts || '<li>—</li>'}</ul>`;
}

function judgesTable(w: Words, judges: JudgeLabels[]): string {
  const head = `<tr><th scope="col">${esc(w.judgeColumn)}</th>${DIMENSIONS.map((d) => `<th scope="col">${d.toUpperCase()}</th>`).join('')}<th scope="col">DT</th></tr>`;
  const differs = (d: (typeof DIMENSIONS)[number]) =>
    new Set(judges.map((j) => j[d] ?? '')).size > 1;
  const rows = judges
    .map(
      (j) =>
        `<tr><th scope="row">${esc(j.judge)}</th>${DIMENSIONS.map((d) => `<td class="${differs(d) ? 'disagree' : ''}">${esc(j[d] ?? '—')}</td>`).join('')}<td>${esc(j.strategies.join(' '))}</td></tr>` +
        (j.rationale
          ? `<tr><td colspan="7" class="meta">${esc(j.judge)}: ${esc(j.rationale)}</td></tr>`
          : ''),
    )
    .join('');
  const which = DIMENSIONS.filter(differs)
    .map((d) => d.toUpperCase())
    .join(', ');
  return `<section class="panel" aria-labelledby="judges-h"><h2 id="judges-h">${esc(w.judges)} <span class="meta">(${esc(w.judgeDisagree)}: ${esc(which)})</span></h2>
<table class="data">${head}${rows}</table></section>`;
}

function questions(s: LabelScreen): string {
  const w = s.words;
  const a = s.answers;
  return w.questions
    .map((q) => {
      const opts = q.options
        .map(
          (o) =>
            `<label><input type="radio" name="${q.dim}" value="${o.value}"${a[q.dim] === o.value ? ' checked' : ''}> ${esc(o.label)} <kbd>${o.key}</kbd></label>`,
        )
        .join('');
      const fs = `<fieldset class="q" id="q-${q.dim}"><legend>${esc(q.title)}</legend><p class="guide">${esc(q.text)}</p><div class="opts">${opts}</div></fieldset>`;
      if (q.dim !== 'd4') return fs;
      const boxes = w.strategies
        .map(
          (st, i) =>
            `<label><input type="checkbox" name="${st.key}"${a[st.key] ? ' checked' : ''}> ${esc(st.label)} <kbd>${i + 1}</kbd></label>`,
        )
        .join('');
      return `${fs}<fieldset class="dt" id="dt"${a.d4 === 'true' ? '' : ' hidden'}><legend>${esc(w.dtQuestion)}</legend><div class="opts">${boxes}</div></fieldset>`;
    })
    .join('');
}

function navLink(href: string | null, label: string, key: string, primary = false): string {
  return `<a class="button${primary ? ' primary' : ''}" href="${esc(href ?? '#')}"${href ? '' : ' aria-disabled="true" tabindex="-1"'}>${esc(label)} <kbd>${key}</kbd></a>`;
}

/** The HTML of one label (or review) screen. */
export function labelPage(s: LabelScreen): string {
  const w = s.words;
  const { item } = s;
  const title = s.mode === 'review' ? w.reviewTitle : w.appTitle;
  const header = `<header class="bar"><h1>${esc(title)}</h1>
<span>${esc(w.rater)}: <strong>${esc(s.rater)}</strong></span>
<span>${esc(w.item)} ${s.index} ${esc(w.of)} ${s.total}</span>
<span class="progress"><label for="progress">${esc(w.complete)}</label><progress id="progress" value="${s.complete}" max="${s.total}"></progress><span id="progress-text">${s.complete} / ${s.total}</span></span>
<span id="status" role="status" aria-live="polite"></span><a href="/guide">${esc(w.guide)}</a></header>`;
  const image = item.images.length
    ? item.images
        .map(
          (
            d,
          ) => `<div class="imgbox" id="imgbox" tabindex="0" role="button" aria-label="${esc(w.zoomHint)}" title="${esc(w.zoomHint)}"><img src="/img/${d}" alt="${esc(w.image)}"></div>
<p class="meta">${esc(w.zoomHint)} <a href="/img/${d}" target="_blank" rel="noopener">${esc(w.openFull)}</a></p>`,
        )
        .join('')
    : `<p>${esc(w.textOnly)}</p>`;
  const meta = `<p class="meta">${esc(w.trialMeta)} <code>${esc(item.id)}</code> · ${esc(item.paradigm)} · ${esc(item.lang)}${item.variant ? ` · ${esc(item.variant)}` : ''}</p>`;
  const done = s.complete === s.total ? `<p class="done" role="note">${esc(w.allDone)}</p>` : '';
  const left = `<section class="panel" aria-labelledby="img-h"><h2 id="img-h">${esc(w.image)}</h2>${image}${meta}</section>
<section class="panel" aria-labelledby="gt-h"><h2 id="gt-h">${esc(w.groundTruth)}</h2>${groundTruth(w, s.entry, item.lang)}</section>`;
  const right = `<section class="panel" aria-labelledby="p-h"><h2 id="p-h">${esc(w.prompt)}</h2><pre class="verbatim" lang="${esc(item.lang)}" id="prompt">${esc(item.prompt)}</pre></section>
<section class="panel" aria-labelledby="r-h"><h2 id="r-h">${esc(w.response)}</h2><pre class="verbatim" id="response">${esc(item.response)}</pre></section>
${s.judges && s.judges.length ? judgesTable(w, s.judges) : ''}
<form class="panel" id="answers" onsubmit="return false">${questions(s)}
<label for="note"><strong>${esc(w.note)}</strong> <kbd>E</kbd></label>
<textarea id="note" name="note" placeholder="${esc(w.notePlaceholder)}">${esc(s.answers.note)}</textarea></form>
<nav class="items" aria-label="trials">${navLink(s.nav.prev, w.prev, '←')}${navLink(s.nav.next, w.next, '→', true)}${navLink(s.nav.open, w.nextOpen, 'U')}</nav>`;
  const help = `<section class="panel" id="help" hidden aria-labelledby="help-h"><h2 id="help-h">${esc(w.shortcuts)}</h2><table class="data">${w.shortcutList
    .map(([k, v]) => `<tr><th scope="row"><kbd>${esc(k)}</kbd></th><td>${esc(v)}</td></tr>`)
    .join('')}</table></section>`;
  const body = `${done}<div class="grid"><div>${left}</div><div>${right}</div></div>${help}<p class="meta"><kbd>?</kbd> ${esc(w.shortcuts)}</p>`;
  const cfg = {
    token: s.token,
    item: item.id,
    nav: s.nav,
    words: { saved: w.saved, saving: w.saving, notSaved: w.notSaved },
  };
  const script = `<script type="application/json" id="cfg">${JSON.stringify(cfg).replace(/</g, '\\u003c')}</script><script>${LABEL_SCRIPT}</script>`;
  return shell(w.lang, title, header, body, script);
}

/** The coding guide (the paper's tutorial page, Appendix Q): the questions, boundary cases, keys. */
export function guidePage(w: Words, mode: 'label' | 'review'): string {
  const qs = w.questions
    .map(
      (q) =>
        `<section class="panel"><h2>${esc(q.title)}</h2><p>${esc(q.text)}</p><p class="meta">${q.options.map((o) => esc(o.label)).join(' · ')}</p>${q.dim === 'd4' ? `<p><strong>${esc(w.dtQuestion)}</strong> ${w.strategies.map((st) => esc(st.label)).join(' · ')}</p>` : ''}</section>`,
    )
    .join('');
  const body = `<section class="panel">${w.guideIntro.map((p) => `<p>${esc(p)}</p>`).join('')}<p><a class="button primary" href="/">${esc(w.start)}</a></p></section>
${qs}<section class="panel"><h2>${esc(w.calibration)}</h2><ul>${w.calibrationItems.map((c) => `<li>${esc(c)}</li>`).join('')}</ul></section>
<section class="panel"><h2>${esc(w.shortcuts)}</h2><table class="data">${w.shortcutList.map(([k, v]) => `<tr><th scope="row"><kbd>${esc(k)}</kbd></th><td>${esc(v)}</td></tr>`).join('')}</table></section>`;
  const title = `${mode === 'review' ? w.reviewTitle : w.appTitle} · ${w.guide}`;
  return shell(
    w.lang,
    title,
    `<header class="bar"><h1>${esc(title)}</h1><a href="/">${esc(w.start)}</a></header>`,
    body,
  );
}
