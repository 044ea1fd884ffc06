/**
 * Parts of the rater app's pages: the header's language switch, the subject's ground truth, the
 * judges' labels (review mode), the questions, and the keyboard shortcuts (their list in a dialog,
 * the switch that turns single-key shortcuts off). Every text goes through core/html.ts's `html`.
 */
import { html, type Html } from '../core/html.js';
import { langDir } from '../languages/lang-tag.js';
import type { LoadedPack } from '../languages/load.js';
import { inLang, type BundleEntry } from './bundle.js';
import { UI_LANGS, WORDS, type Words } from './i18n.js';
import type { JudgeLabels } from './judges.js';
import { otherScript, pageLang } from './markup.js';
import { DIMENSIONS, type Answer, type ItemAnswers } from './store.js';

/** The interface-language switch (each language named in itself). */
export function langSwitch(w: Words): Html {
  const buttons = UI_LANGS.map(
    (l) =>
      html`<button type="button" data-lang="${l}" lang="${pageLang(l)}" aria-pressed="${String(l === w.lang)}">${WORDS[l].selfName}</button>`,
  );
  return html`<span class="langs" role="group" aria-label="${w.langLabel}">${buttons}</span>`;
}

/** The subject's ground truth: title, context, expected facts (interface language first). */
export function groundTruth(
  w: Words,
  entry: BundleEntry | undefined,
  trialLang: string,
  packs: readonly LoadedPack[],
): Html {
  if (!entry) return html`<p>${w.noEntry}</p>`;
  const title = inLang(entry.title, w.lang);
  const other = inLang(entry.title, trialLang);
  const p = entry.provenance ?? {};
  const context = [
    entry.notes ?? p.notes,
    [p.credit, p.archive, p.date_taken].filter(Boolean).join(' · '),
  ].filter((c): c is string => !!c);
  const facts = entry.expected_facts.map((f) => {
    const text = f[w.lang] ?? f.en;
    const main = typeof text === 'string' ? text : '';
    const alt =
      trialLang !== w.lang && typeof f[trialLang] === 'string'
        ? html`<span class="alt"${langDir(trialLang, packs)}>${f[trialLang]}</span>`
        : null;
    return html`<li><bdi>${main}</bdi>${alt}</li>`;
  });
  const otherTitle =
    other !== title
      ? html` <span class="meta"${langDir(trialLang, packs)}>(<bdi>${other}</bdi>)</span>`
      : null;
  return html`<p><strong>${w.titleLabel}:</strong> <bdi>${title}</bdi>${otherTitle}</p>
<p><strong>${w.context}:</strong> ${context.map((c, i) => html`${i ? html`<br>` : null}${corpusText(w, c)}`)}</p>
<p><strong>${w.expectedFacts}</strong> <span class="meta">${w.factsBasis}</span></p>
<ul class="facts">${facts.length ? facts : html`<li>—</li>`}</ul>`;
}

/**
 * A corpus entry's own text (notes, credit line). The corpus does not say which language these are
 * written in, so none is guessed: in the interface's script the text carries no `lang` of its own;
 * in another script it is `und` (undetermined) and said to be the entry's text as written (data is
 * shown as the corpus has it, never translated).
 */
function corpusText(w: Words, text: string): Html {
  const other = otherScript(mostlyHan(text) ? 'zh' : 'en', w.lang);
  return other
    ? html`<bdi lang="und" dir="auto">${text}</bdi> <span class="meta">(${w.asWritten})</span>`
    : html`<bdi>${text}</bdi>`;
}

/** Whether a text has more Han characters than Latin letters. */
function mostlyHan(text: string): boolean {
  const han = text.match(/\p{Script=Han}/gu)?.length ?? 0;
  const latin = text.match(/\p{Script=Latin}/gu)?.length ?? 0;
  return han > latin;
}

const answerName = (w: Words, v: Answer | null): string => (v === null ? '—' : w.answerNames[v]);

/** Review mode: each judge's labels, the dimensions they disagree on marked, and rationales. */
export function judgesTable(w: Words, judges: JudgeLabels[]): Html {
  const differs = (d: (typeof DIMENSIONS)[number]) =>
    new Set(judges.map((j) => j[d] ?? '')).size > 1;
  const head = html`<tr><th scope="col">${w.judgeColumn}</th>${DIMENSIONS.map((d) => html`<th scope="col">${d.toUpperCase()}</th>`)}<th scope="col">${w.strategyColumn}</th></tr>`;
  const rows = judges.map(
    (j) =>
      html`<tr><th scope="row"><bdi>${j.judge}</bdi></th>${DIMENSIONS.map((d) => html`<td class="${differs(d) ? 'disagree' : ''}">${answerName(w, j[d])}</td>`)}<td>${j.strategies.join(' ')}</td></tr>${
        j.rationale
          ? html`<tr><td colspan="7" class="meta"><bdi>${j.judge}</bdi>: <bdi>${j.rationale}</bdi></td></tr>`
          : null
      }`,
  );
  const which = DIMENSIONS.filter(differs)
    .map((d) => d.toUpperCase())
    .join(', ');
  return html`<section class="panel" aria-labelledby="judges-h"><h2 id="judges-h">${w.judges} <span class="meta">(${w.judgeDisagree}: ${which})</span></h2>
<div class="scroll"><table class="data">${head}${rows}</table></div></section>`;
}

/** The five questions (and the DT follow-up under D4) with the rater's answers checked. */
export function questions(w: Words, a: ItemAnswers): Html {
  return html`${w.questions.map((q) => {
    const opts = q.options.map(
      (o) =>
        html`<label><input type="radio" name="${q.dim}" value="${o.value}"${a[q.dim] === o.value ? html` checked` : null}> ${o.label} <kbd>${o.key}</kbd></label>`,
    );
    const fs = html`<fieldset class="q" id="q-${q.dim}" tabindex="-1" data-title="${q.title}"><legend>${q.title}</legend><p class="guide">${q.text}</p><div class="opts">${opts}</div></fieldset>`;
    if (q.dim !== 'd4') return fs;
    const boxes = w.strategies.map(
      (st, i) =>
        html`<label><input type="checkbox" name="${st.key}"${a[st.key] ? html` checked` : null}> ${st.label} <kbd>${i + 1}</kbd></label>`,
    );
    return html`${fs}<fieldset class="dt" id="dt"${a.d4 === 'true' ? null : html` hidden`}><legend>${w.dtQuestion}</legend><div class="opts">${boxes}</div></fieldset>`;
  })}`;
}

/** The table of keys. */
export function shortcutTable(w: Words): Html {
  return html`<table class="data">${w.shortcutList.map(([k, v]) => html`<tr><th scope="row"><kbd>${k}</kbd></th><td>${v}</td></tr>`)}</table>`;
}

const toggle = (w: Words, on: boolean): Html =>
  html`<label class="toggle"><input type="checkbox" class="keys-toggle"${on ? html` checked` : null}> ${w.shortcutsToggle}</label>`;

/**
 * The footer (a button that opens the list of keys, the switch that turns single-key shortcuts off,
 * WCAG 2.1.4) and the list itself, a dialog shown over the page.
 */
export function shortcutsParts(w: Words, on: boolean): Html {
  return html`<footer class="keys"><button type="button" id="help-open"><kbd>?</kbd> ${w.shortcuts}</button>${toggle(w, on)}<span class="keys-off" id="keys-off"${on ? html` hidden` : null}>${w.shortcutsOff}</span></footer>
<dialog id="help" aria-labelledby="help-h"><button type="button" class="close" id="help-close">${w.close}</button><h2 id="help-h">${w.shortcuts}</h2>${shortcutTable(w)}
<p>${toggle(w, on)}</p><p class="meta">${w.shortcutsToggleHint}</p></dialog>`;
}
