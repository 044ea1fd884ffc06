/** The coding guide (the paper's tutorial page, Appendix Q): the questions, boundary cases, keys. */
import { html, type Html } from '../core/html.js';
import type { Words } from './i18n.js';
import { jsonData } from './markup.js';
import { shell } from './page.js';
import { langSwitch, shortcutTable } from './page-parts.js';

/** The coding guide in the interface language. */
export function guidePage(w: Words, mode: 'label' | 'review', token: string): Html {
  const qs = w.questions.map(
    (q) =>
      html`<section class="panel"><h2>${q.title}</h2><p>${q.text}</p><p class="meta">${q.options.map((o) => o.label).join(' · ')}</p>${q.dim === 'd4' ? html`<p><strong>${w.dtQuestion}</strong> ${w.strategies.map((st) => st.label).join(' · ')}</p>` : null}</section>`,
  );
  const body = html`<section class="panel">${w.guideIntro.map((p) => html`<p>${p}</p>`)}<p><a class="button primary" href="/">${w.start}</a></p></section>
${qs}<section class="panel"><h2>${w.calibration}</h2><ul>${w.calibrationItems.map((c) => html`<li>${c}</li>`)}</ul></section>
<section class="panel"><h2>${w.shortcuts}</h2>${shortcutTable(w)}</section>`;
  const title = `${mode === 'review' ? w.reviewTitle : w.appTitle} · ${w.guide}`;
  const header = html`<header class="bar"><h1>${title}</h1>${langSwitch(w)}<a href="/">${w.start}</a></header>`;
  const tail = html`${jsonData('cfg', { token })}<script src="/static/label.js"></script>`;
  return shell(w, title, header, body, tail);
}
