/**
 * The report page's pieces: one self-contained HTML file (inline CSS and inline SVG, no scripts,
 * no web fonts, no network), readable from disk. Every value goes into markup through the `html`
 * template of src/core/html.ts (escaped by default); only stimkit's own CSS and the SVG it
 * rendered are `trusted`. Tables show headers in words, numbers in one format (format.ts), an
 * explanation for every empty cell, and what each column means (dictionary.ts). Content wider
 * than the screen scrolls inside its own box, with a visible hint when it does not fit.
 */
import { html, trusted, type Html } from '../core/html.js';
import { FONT_FAMILY } from './chart.js';
import { describeTable, type ColumnInfo } from './dictionary.js';
import { fmt, UNIT_WORDS } from './format.js';
import type { ReportTable } from './types.js';

/*
 * The CJK font first in FONT_FAMILY draws ‘ ’ “ ” full-width ("model’ s"); a locally installed
 * Latin font (local(), nothing fetched) draws just those characters, on the page and in the
 * inline charts (CSS overrides the SVG's font-family attribute; the SVG/PNG files keep theirs).
 * Text keeps a readable measure (1100 px); charts and tables use the whole window.
 */
export const CSS = `
@font-face { font-family: 'stimkit-quotes'; src: local('Noto Sans'), local('DejaVu Sans'), local('Liberation Sans'), local('Arial'); unicode-range: U+2018-201F; }
body { font-family: 'stimkit-quotes', ${FONT_FAMILY}; margin: 0; padding: 24px; color: #222; line-height: 1.45; overflow-wrap: break-word; }
h1, h2, p, nav, .meta, .sim, figcaption, .caption, details, .hint { max-width: 1100px; }
h1 { font-size: 24px; margin-bottom: 4px; } h2 { font-size: 19px; margin-top: 36px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
.meta { font-size: 13px; color: #444; } .meta code { font-size: 12px; word-break: break-all; }
.sim { background: #fff3cd; border: 2px solid #e0a800; padding: 10px 14px; font-weight: bold; margin: 14px 0; }
figure { margin: 18px 0; } figure svg text { font-family: 'stimkit-quotes', ${FONT_FAMILY}; }
.wide { overflow-x: auto; max-width: 100%; container-type: scroll-state; } .wide > svg { display: block; max-width: none; height: auto; }
.wide:focus-visible { outline: 2px solid #0b57d0; outline-offset: 2px; }
.hint { display: none; position: sticky; left: 0; width: max-content; max-width: calc(100vw - 48px); font-size: 13px; color: #444; margin: 4px 0; font-style: italic; white-space: normal; }
@container scroll-state(scrollable: inline) { .hint { display: block; } }
figcaption, .caption { font-size: 13px; color: #444; margin-top: 4px; }
table { border-collapse: collapse; font-size: 12.5px; margin: 8px 0; } th, td { border: 1px solid #ddd; padding: 3px 7px; text-align: right; }
th { background: #f5f5f5; vertical-align: bottom; } td { white-space: nowrap; } td.t, th.t { text-align: left; } td.empty { color: #555; text-align: center; }
details { font-size: 13px; color: #333; margin: 4px 0 14px; } summary { cursor: pointer; color: #0b57d0; }
details dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 6px 0; } details dt { font-weight: bold; } details dd { margin: 0; }
.files { font-size: 12px; color: #555; }
.examples { list-style: none; padding: 0; max-width: 1100px; } .examples li { margin: 10px 0; } .ex-label { font-size: 13px; color: #444; }
.examples blockquote { margin: 4px 0 0; padding: 6px 10px; border-left: 3px solid #bbb; background: #fafafa; white-space: pre-wrap; }
.strip { display: flex; flex-wrap: wrap; gap: 6px; align-items: flex-end; margin-bottom: 10px; } .strip-label { font-size: 13px; font-weight: bold; margin-top: 8px; }
.thumb { text-align: center; font-size: 11px; color: #444; max-width: 132px; } .thumb img { display: block; margin: 0 auto 2px; border: 1px solid #ddd; background: #fff; }
@media (max-width: 600px) { body { padding: 12px; } h1 { font-size: 20px; } }
.phone { display: none; } @media (max-width: 600px) { .phone { display: block; } .not-phone { display: none; } }
`;

/** Text for the page with "95 %" kept on one line (a no-break space between number and %). */
export const nb = (text: string): string => text.replace(/(\d) %/g, '$1\u00a0%');

/** The page's horizontal padding on both sides together, at its widest. */
const PAGE_PADDING = 48;

/** A box that scrolls sideways when its content does not fit, with its hint. */
export interface WideBox {
  html: Html;
  /** The CSS rule that shows the hint where the browser cannot tell whether the box scrolls. */
  rule: string;
}

/**
 * A box that scrolls sideways when its content does not fit, with a hint inside it (held at its
 * left edge) that shows only when it truly scrolls: a scroll-state container query asks the
 * browser whether the box overflows. Where the browser cannot answer that, the hint shows below
 * the estimated `width` instead (a media query).
 */
export function wideBox(id: string, width: number, label: string, content: Html): WideBox {
  const what = label.startsWith('Table') ? 'table' : 'chart';
  return {
    html: html`<div class="wide" id="${id}" tabindex="0" role="region" aria-label="${label}" aria-describedby="hint-${id}"><p class="hint" id="hint-${id}">This ${what} is wider than the window: scroll it sideways to see all of it →</p>${content}</div>`,
    rule: `@supports not (container-type: scroll-state) { @media (max-width: ${Math.ceil(width) + PAGE_PADDING}px) { #hint-${id} { display: block; } } }`,
  };
}

/*
 * The narrowest a table can get (each column as wide as its longest cell, headers wrapping at
 * spaces), estimated generously from character counts: a little too early a hint costs nothing,
 * a missing one hides columns.
 */
const CHAR_PX = 6.8;
const CELL_PAD = 16;
const textWidth = (s: string) => [...s].reduce((w, c) => w + (c.charCodeAt(0) > 0x2e80 ? 2 : 1), 0);

function minTableWidth(cols: ColumnInfo[], cells: string[][]): number {
  return cols.reduce((sum, c, i) => {
    const head = Math.max(...nb(c.label).split(' ').map(textWidth)) * 1.1;
    const body = Math.max(0, ...cells.map((r) => textWidth(r[i] ?? '')));
    return sum + Math.max(head, body) * CHAR_PX + CELL_PAD;
  }, 0);
}

/** Columns shown as words (left-aligned): text and yes/no flags. */
const isText = (c: ColumnInfo) => c.unit === 'text' || c.unit === 'flag';

/** What the columns of a table (or a chart's data) mean, as a collapsed list under it. */
export function dictionaryHtml(t: ReportTable): Html {
  const items = describeTable(t).map(
    (c) =>
      html`<dt>${c.label}</dt><dd>${c.meaning}; ${UNIT_WORDS[c.unit]}; in the CSV: <code>${c.name}</code>${c.empty ? `; empty: ${c.empty}` : ''}</dd>`,
  );
  return html`<details><summary>What the columns of ${t.id}.csv mean</summary><dl>${items}</dl></details>`;
}

/** Notes for the columns of `t` that have empty cells: why they are empty. */
function emptyNotes(t: ReportTable, cols: ColumnInfo[]): string {
  const byReason = new Map<string, string[]>();
  cols.forEach((c, i) => {
    if (!t.rows.some((r) => r[i] === null || r[i] === undefined || r[i] === '')) return;
    const why = c.empty ?? 'not available for this row';
    byReason.set(why, [...(byReason.get(why) ?? []), c.label]);
  });
  const notes = [...byReason].map(([why, labels]) => `${labels.join(', ')}: ${why}`);
  return notes.length > 0 ? ` — marks an empty cell (${notes.join('; ')}).` : '';
}

/** An HTML table with its caption (n and interval method), the scroll hint and the column meanings. */
export function tableHtml(t: ReportTable, simulated: boolean): WideBox {
  const cols = describeTable(t);
  const cells = t.rows.map((r) => r.map((v, i) => fmt(v, cols[i]?.unit ?? 'text')));
  const head = cols.map(
    (c) => html`<th${isText(c) ? trusted(' class="t"') : ''}>${nb(c.label)}</th>`,
  );
  const body = t.rows.map(
    (r, ri) =>
      html`<tr>${r.map((v, i) => {
        const text = cells[ri]![i]!;
        if (text === '') return html`<td class="empty" title="${cols[i]?.empty ?? 'empty'}">—</td>`;
        const in_ = t.cellLang?.[t.columns[i]!]?.[ri];
        if (in_) return html`<td class="t" lang="${in_.lang}" dir="${in_.dir}">${text}</td>`;
        return typeof v === 'number' && !isText(cols[i]!)
          ? html`<td>${text}</td>`
          : html`<td class="t">${text}</td>`;
      })}</tr>\n`,
  );
  const box = wideBox(
    `tbl-${t.id}`,
    minTableWidth(cols, cells),
    `Table ${t.title}`,
    html`<table><thead><tr>${head}</tr></thead><tbody>
${body}</tbody></table>`,
  );
  return {
    rule: box.rule,
    html: html`<div class="caption"><b>${t.title}</b>. ${nb(t.n)}. ${nb(t.interval)}.${emptyNotes(t, cols)}${simulated ? html` <b>Simulated data.</b>` : ''} Data: <a href="tables/${t.id}.csv">tables/${t.id}.csv</a></div>
${box.html}
${dictionaryHtml(t)}`,
  };
}
