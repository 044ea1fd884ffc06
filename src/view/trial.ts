/**
 * `/trial/<id>`: one trial as it was sent — each message labelled with its role — and, with
 * scores, every response to it, the models side by side (as many columns as the window holds): the text, the six dimensions with the judge that decided them,
 * and every other field the scores hold.
 */
import type { Trial } from '../bundle/format.js';
import { html, type Html } from '../core/html.js';
import { langDir } from '../languages/lang-tag.js';
import type { LoadedPack } from '../languages/load.js';
import { modelText } from '../label/markup.js';
import {
  changedNote,
  decidingJudge,
  DIMS,
  dimValue,
  forcedChoice,
  isSimulated,
  routeNote,
  shownValue,
  signed,
} from './dims.js';
import type { ScoreRow } from './scores.js';
import { viewShell, type ViewData } from './shell.js';

const ROLES: Record<string, string> = {
  system: 'System message',
  user: 'User message',
  assistant: 'Assistant message (given in the prompt)',
};

function messages(t: Trial, packs: readonly LoadedPack[]): Html {
  return html`${t.messages.map(
    (m, i) =>
      html`<div class="msg"><h3>${i + 1}. ${ROLES[m.role] ?? m.role} <span class="meta">(role <code>${m.role}</code>)</span></h3>${m.content.map(
        (p) =>
          p.type === 'text'
            ? html`<pre class="verbatim"${langDir(t.lang, packs)}>${p.text}</pre>`
            : html`<div class="imgbox whole"><img src="/img/${p.sha256}" alt="image shown with this trial (${t.variant ?? ''})"></div>`,
      )}</div>`,
  )}`;
}

const FIELDS = [
  ['paradigm', 'Paradigm'],
  ['lang', 'Language'],
  ['entry', 'Entry'],
  ['item', 'Item'],
  ['topic', 'Topic'],
  ['variant', 'Variant'],
  ['framing', 'Framing'],
  ['iteration', 'Iteration'],
  ['seed', 'Seed'],
  ['prompt', 'Prompt card'],
  ['models', 'Models'],
] as const;

function trialFields(t: Trial): Html {
  const rows = FIELDS.filter(([k]) => t[k] !== null && t[k] !== undefined).map(
    ([k, label]) =>
      html`<tr><th scope="row">${label}</th><td>${k === 'entry' ? html`<a href="/entry/${encodeURIComponent(t.entry!)}"><bdi>${t.entry}</bdi></a>` : html`<bdi>${String(t[k])}</bdi>`}</td></tr>`,
  );
  return html`<div class="scroll"><table class="data">${rows}</table></div>`;
}

function summary(r: ScoreRow): Html | null {
  const fc = forcedChoice(r);
  const dims = DIMS.map((d) => ({ d, v: dimValue(r, d).value })).filter((x) => x.v !== null);
  const parts = dims.map(({ d, v }) => `${d.code} ${d.name}: ${shownValue(v)}`);
  if (fc)
    parts.push(`answer: ${fc.label}${fc.stance === null ? '' : ` (stance ${signed(fc.stance)})`}`);
  const judge = decidingJudge(r);
  if (judge) parts.push(`judge: ${judge}`);
  return parts.length ? html`<p><bdi>${parts.join(' · ')}</bdi></p>` : null;
}

function response(t: Trial, r: ScoreRow, packs: readonly LoadedPack[]): Html {
  const text =
    r.response !== null
      ? modelText(r.response, t.lang, r.response, packs)
      : html`<p class="meta">(no response text in the scores)</p>`;
  const fields = Object.entries(r.labels).map(
    ([k, v]) => html`<div><dt><code><bdi>${k}</bdi></code></dt><dd><bdi>${v}</bdi></dd></div>`,
  );
  return html`<section class="panel"><h3><bdi>${r.model}</bdi>${isSimulated(r) ? html` <span class="tag sim">SIMULATED</span>` : null}${routeNote(r) ? html` <span class="meta"><bdi>${routeNote(r)}</bdi></span>` : null}</h3>${changedNote(r)}${text}${summary(r)}
<details open><summary>All fields (${fields.length})</summary><dl class="fields">${fields}</dl></details></section>`;
}

/** `/trial/<id>`: the trial as sent, and its responses. */
export function trialPage(data: ViewData, t: Trial, responses: ScoreRow[]): Html {
  const resp = responses.map((r) => response(t, r, data.bundle.packs));
  const body = html`<div class="grid"><section class="panel"><h2>Messages</h2>${messages(t, data.bundle.packs)}</section><section class="panel"><h2>Trial</h2>${trialFields(t)}</section></div>
${data.scores ? html`<h2>Responses (${responses.length})</h2>${resp.length ? html`<div class="models">${resp}</div>` : html`<p>No response to this trial in the scores.</p>`}` : null}`;
  return viewShell(data, `Trial ${t.id}`, '', body);
}
