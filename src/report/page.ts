/** Lays the built sections out on the report page (see html.ts for the page's rules). */
import { TOOL } from '../core/tool.js';
import { CSS, escapeHtml, tableHtml } from './html.js';
import type {
  ReportChart,
  ReportContext,
  ReportFigure,
  ReportSection,
  SectionContent,
} from './types.js';

/** A section after its charts were rendered. */
export interface RenderedSection {
  section: ReportSection;
  content: SectionContent;
  charts: { chart: ReportChart; svg: string }[];
}

function figureHtml(chart: ReportChart, svg: string, simulated: boolean): string {
  const d = chart.data;
  const links = `<a href="charts/${chart.id}.svg">SVG</a> · <a href="charts/${chart.id}.png">PNG</a> · <a href="tables/${d.id}.csv">data (CSV)</a>`;
  return `<figure id="fig-${escapeHtml(chart.id)}" role="img" aria-label="${escapeHtml(chart.alt)}">
${svg.replace(/^<\?xml[^>]*>\s*/, '')}
<figcaption><b>${escapeHtml(chart.title)}</b>. ${escapeHtml(d.n)}. ${escapeHtml(d.interval)}.${simulated ? ' <b>Simulated data.</b>' : ''} ${links}</figcaption>
</figure>`;
}

/** A figure of image strips (thumbnails written beside the page, referenced relatively). */
function imagesHtml(f: ReportFigure, simulated: boolean): string {
  const strips = f.rows
    .map((row) => {
      const cells = row.images
        .map(
          (img) =>
            `<div class="thumb"><img src="${escapeHtml(img.file)}" width="${img.width}" height="${img.height}" alt="${escapeHtml(img.alt)}"><div>${escapeHtml(img.label)}</div></div>`,
        )
        .join('');
      return `<div class="strip-label">${escapeHtml(row.label)}</div>\n<div class="strip">${cells}</div>`;
    })
    .join('\n');
  return `<figure id="fig-${escapeHtml(f.id)}">
${strips}
<figcaption><b>${escapeHtml(f.title)}</b>. ${escapeHtml(f.data.n)}. ${escapeHtml(f.data.interval)}.${simulated ? ' <b>Simulated responses.</b>' : ''} Provenance: <a href="tables/${escapeHtml(f.data.id)}.csv">tables/${escapeHtml(f.data.id)}.csv</a></figcaption>
</figure>`;
}

/** The whole page. `scoresRel` is the scores folder relative to the report folder. */
export function pageHtml(
  ctx: ReportContext,
  sections: RenderedSection[],
  scoresRel: string,
  simulatedNotes: string[] = [],
): string {
  const h = ctx.header;
  const source = h.inputs.find((i) => i.role === 'ledger' || i.role === 'responses');
  const models = h.inputs.find((i) => i.role === 'models');
  const meta = [
    ['Study', h.bundle.study ?? '(unknown)'],
    ['Bundle digest', `<code>${escapeHtml(h.bundle.digest)}</code>`],
    [
      source?.role === 'ledger' ? 'Ledger' : 'Responses',
      source
        ? `<code>${escapeHtml(source.file)}</code> (sha256 <code>${source.sha256.slice(0, 16)}…</code>)`
        : '(none)',
    ],
    [
      'Models file',
      models
        ? `<code>${escapeHtml(models.file)}</code>`
        : source?.role === 'ledger'
          ? 'none (origin and vendor as the ledger recorded them)'
          : 'none (origin unknown)',
    ],
    [
      'Scores',
      `<code>${escapeHtml(scoresRel)}</code>: ${h.counts.records} scored responses from ${h.counts.models.length} model(s), scored by ${escapeHtml(h.tool.name)} ${escapeHtml(h.tool.version)}`,
    ],
    ['Report', `${escapeHtml(TOOL.name)} ${escapeHtml(TOOL.version)}`],
  ]
    .map(([k, v]) => `<div><b>${k}:</b> ${k === 'Study' ? escapeHtml(v!) : v}</div>`)
    .join('\n');
  const banner = ctx.simulated
    ? `<div class="sim">SIMULATED DATA: ${h.counts.simulated} of ${h.counts.records} responses come from simulated respondents (${escapeHtml(
        h.counts.models
          .filter((m) => m.simulated)
          .map((m) => m.name)
          .join(', '),
      )}). Nothing here describes a real model.${simulatedNotes.map((n) => ` ${escapeHtml(n)}`).join('')}</div>`
    : simulatedNotes.length > 0
      ? `<div class="sim">SIMULATED DATA:${simulatedNotes.map((n) => ` ${escapeHtml(n)}`).join('')}</div>`
      : '';
  const toc = sections
    .map(
      (s) => `<li><a href="#${escapeHtml(s.section.id)}">${escapeHtml(s.section.title)}</a></li>`,
    )
    .join('');
  const body = sections
    .map((s) => {
      const parts = [
        `<section id="${escapeHtml(s.section.id)}"><h2>${escapeHtml(s.section.title)}</h2>`,
      ];
      for (const p of s.content.paragraphs) parts.push(`<p>${escapeHtml(p)}</p>`);
      for (const c of s.charts) parts.push(figureHtml(c.chart, c.svg, ctx.simulated));
      for (const f of s.content.figures ?? []) parts.push(imagesHtml(f, ctx.simulated));
      for (const t of s.content.tables) parts.push(tableHtml(t, ctx.simulated));
      parts.push('</section>');
      return parts.join('\n');
    })
    .join('\n');
  const title = `stimkit report: ${h.bundle.study ?? h.bundle.digest.slice(0, 12)}${ctx.simulated ? ' (simulated)' : ''}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<div class="meta">
${meta}
</div>
${banner}
<nav><ol>${toc}</ol></nav>
${body}
<p class="files">Charts are vega-lite specs (charts/*.vl.json) rendered to SVG in Node; PNGs are rendered from the SVGs. Every chart's values are in tables/. Intervals and tests are described in each caption.</p>
</body>
</html>
`;
}
