/**
 * The report page: one self-contained HTML file (inline CSS and inline SVG, no scripts, no web
 * fonts, no network), readable from disk. The page names the bundle digest, the responses' source
 * (ledger or file), the tool version, and marks simulated data as simulated, in a banner and in
 * every chart and table caption.
 */
import { FONT_FAMILY } from './chart.js';
import { csvField } from '../core/csv.js';
import type { ReportTable } from './types.js';

/** Escape text for HTML element content and attribute values. */
export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/*
 * The CJK font first in FONT_FAMILY draws ‘ ’ “ ” full-width ("model’ s"); a locally installed
 * Latin font (local(), nothing fetched) draws just those characters, on the page and in the
 * inline charts (CSS overrides the SVG's font-family attribute; the SVG/PNG files keep theirs).
 */
export const CSS = `
@font-face { font-family: 'stimkit-quotes'; src: local('Noto Sans'), local('DejaVu Sans'), local('Liberation Sans'), local('Arial'); unicode-range: U+2018-201F; }
body { font-family: 'stimkit-quotes', ${FONT_FAMILY}; margin: 0 auto; max-width: 1100px; padding: 24px; color: #222; line-height: 1.45; }
h1 { font-size: 24px; margin-bottom: 4px; } h2 { font-size: 19px; margin-top: 36px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
.meta { font-size: 13px; color: #444; } .meta code { font-size: 12px; word-break: break-all; }
.sim { background: #fff3cd; border: 2px solid #e0a800; padding: 10px 14px; font-weight: bold; margin: 14px 0; }
figure { margin: 18px 0; } figure svg { max-width: 100%; height: auto; } figure svg text { font-family: 'stimkit-quotes', ${FONT_FAMILY}; }
figcaption, .caption { font-size: 13px; color: #444; margin-top: 4px; }
table { border-collapse: collapse; font-size: 12.5px; margin: 8px 0; } th, td { border: 1px solid #ddd; padding: 3px 7px; text-align: right; }
th { background: #f5f5f5; } td { white-space: nowrap; } .scroll { overflow-x: auto; max-width: 100%; } td.t, th.t { text-align: left; }
.files { font-size: 12px; color: #555; }
.strip { display: flex; flex-wrap: wrap; gap: 6px; align-items: flex-end; margin-bottom: 10px; } .strip-label { font-size: 13px; font-weight: bold; margin-top: 8px; }
.thumb { text-align: center; font-size: 11px; color: #444; max-width: 132px; } .thumb img { display: block; margin: 0 auto 2px; border: 1px solid #ddd; background: #fff; }
`;

/** A number for a table cell: fixed decimals for floats, p values in 3 significant digits. */
export function formatCell(v: unknown, column: string): string {
  if (v === null || v === undefined || v === '') return '';
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return String(v);
    if (/^p\b|p[ _(]|holm/i.test(column)) return v < 0.001 ? v.toExponential(1) : v.toPrecision(2);
    return v.toFixed(3);
  }
  return String(v);
}

/** An HTML table with its caption (n and interval method). */
export function tableHtml(t: ReportTable, simulated: boolean): string {
  const head = t.columns
    .map((c, i) => `<th${i === 0 ? ' class="t"' : ''}>${escapeHtml(c)}</th>`)
    .join('');
  const body = t.rows
    .map(
      (r) =>
        `<tr>${r.map((v, i) => `<td${typeof v === 'number' ? '' : ' class="t"'}>${escapeHtml(formatCell(v, t.columns[i] ?? ''))}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<div class="caption"><b>${escapeHtml(t.title)}</b>. ${escapeHtml(t.n)}. ${escapeHtml(t.interval)}.${simulated ? ' <b>Simulated data.</b>' : ''} Data: <a href="tables/${escapeHtml(t.id)}.csv">tables/${escapeHtml(t.id)}.csv</a></div>
<div class="scroll"><table><thead><tr>${head}</tr></thead><tbody>
${body}
</tbody></table></div>`;
}

/** A table as CSV text. */
export function tableCsv(t: ReportTable): string {
  return `${[t.columns, ...t.rows].map((r) => r.map((v) => csvField(v as never)).join(',')).join('\n')}\n`;
}
