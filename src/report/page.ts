/** Lays the built sections out on the report page (see html.ts for the page's rules). */
import { html, trusted, type Html } from '../core/html.js';
import { TOOL } from '../core/tool.js';
import { CSS, dictionaryHtml, nb, tableHtml, wideBox, type WideBox } from './html.js';
import { plainMarks, svgWidth } from './writer.js';
import type {
  ReportChart,
  ReportExample,
  ReportContext,
  ReportFigure,
  ReportSection,
  SectionContent,
} from './types.js';

/**
 * The page's Content-Security-Policy: nothing runs and nothing is fetched; only the page's own
 * style, and images beside it (the ladder's thumbnails).
 */
const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' file:; base-uri 'none'; form-action 'none'";

/** The section shown first, before the inputs and the contents. */
const KEY_RESULTS_ID = 'key-results';

/** A section after its charts were rendered. */
export interface RenderedSection {
  section: ReportSection;
  content: SectionContent;
  charts: { chart: ReportChart; svg: string; phone: string | null }[];
}

/** The chart's box; with a phone layout, two boxes of which the window's width shows one. */
function chartBoxes(chart: ReportChart, svg: string, phone: string | null): WideBox {
  const inline = (s: string) => trusted(plainMarks(s.replace(/^<\?xml[^>]*>\s*/, '')));
  const box = wideBox(`chart-${chart.id}`, svgWidth(svg), `Chart ${chart.title}`, inline(svg));
  if (phone === null) return box;
  const small = wideBox(
    `chart-${chart.id}-phone`,
    svgWidth(phone),
    `Chart ${chart.title}`,
    inline(phone),
  );
  return {
    rule: `${box.rule}\n${small.rule}`,
    html: html`<div class="not-phone">${box.html}</div><div class="phone">${small.html}</div>`,
  };
}

function figureHtml(
  chart: ReportChart,
  svg: string,
  phone: string | null,
  simulated: boolean,
): WideBox {
  const d = chart.data;
  const box = chartBoxes(chart, svg, phone);
  return {
    rule: box.rule,
    html: html`<figure id="fig-${chart.id}">
${box.html}
<figcaption><b>${chart.title}</b>. ${nb(d.n)}. ${nb(d.interval)}.${simulated ? html` <b>Simulated data.</b>` : ''} <a href="charts/${chart.id}.svg">SVG</a> · <a href="charts/${chart.id}.png">PNG</a> · <a href="tables/${d.id}.csv">data (CSV)</a></figcaption>
${dictionaryHtml(d)}
</figure>`,
  };
}

/** A figure of image strips (thumbnails written beside the page, referenced relatively). */
function imagesHtml(f: ReportFigure, simulated: boolean): Html {
  const strips = f.rows.map((row) => {
    const cells = row.images.map(
      (img) =>
        html`<div class="thumb"><img src="${img.file}" width="${img.width}" height="${img.height}" alt="${img.alt}"><div>${img.label}</div></div>`,
    );
    return html`<div class="strip-label">${row.label}</div>\n<div class="strip">${cells}</div>\n`;
  });
  return html`<figure id="fig-${f.id}">
${strips}<figcaption><b>${f.title}</b>. ${nb(f.data.n)}. ${nb(f.data.interval)}.${simulated ? html` <b>Simulated responses.</b>` : ''} Provenance: <a href="tables/${f.data.id}.csv">tables/${f.data.id}.csv</a></figcaption>
${dictionaryHtml(f.data)}
</figure>`;
}

/** Example responses, each under its label, in its language (the text is the model's: escaped). */
function examplesHtml(examples: readonly ReportExample[]): Html | string {
  if (examples.length === 0) return '';
  const items = examples.map(
    (
      e,
    ) => html`<li><div class="ex-label">${e.label}${e.simulated ? html` <b>(simulated)</b>` : ''} — trial <code>${e.trial}</code></div>
${e.text === null ? html`<p class="ex-none">The text is not available here (see above).</p>` : html`<blockquote lang="${e.lang}" dir="${e.dir}">${e.text}${e.cut ? ' […]' : ''}</blockquote>`}</li>`,
  );
  return html`<ul class="examples" aria-label="Example responses">${items}</ul>`;
}

function metaHtml(ctx: ReportContext, scoresRel: string): Html {
  const h = ctx.header;
  const source = h.inputs.find((i) => i.role === 'ledger' || i.role === 'responses');
  const models = h.inputs.find((i) => i.role === 'models');
  const rows: Array<[string, Html | string]> = [
    ['Study', h.bundle.study ?? '(unknown)'],
    ['Bundle digest', html`<code>${h.bundle.digest}</code>`],
    [
      source?.role === 'ledger' ? 'Ledger' : 'Responses',
      source
        ? html`<code>${source.file}</code> (sha256 <code>${source.sha256.slice(0, 16)}…</code>)`
        : '(none)',
    ],
    [
      'Models file',
      models
        ? html`<code>${models.file}</code>`
        : source?.role === 'ledger'
          ? 'none (origin and vendor as the ledger recorded them)'
          : 'none (origin unknown)',
    ],
    [
      'Scores',
      html`<code>${scoresRel}</code>: ${h.counts.records} scored responses from ${h.counts.models.length} model(s), scored by ${h.tool.name} ${h.tool.version}`,
    ],
    ['Report', `${TOOL.name} ${TOOL.version}`],
  ];
  return html`${rows.map(([k, v]) => html`<div><b>${k}:</b> ${v}</div>\n`)}`;
}

function bannerHtml(ctx: ReportContext, notes: string[]): Html | string {
  const h = ctx.header;
  const sim = h.counts.models.filter((m) => m.simulated).map((m) => m.name);
  const extra = notes.map((n) => ` ${n}`).join('');
  if (ctx.simulated)
    return html`<div class="sim">SIMULATED DATA: ${h.counts.simulated} of ${h.counts.records} responses come from simulated respondents (${sim.join(', ')}). Nothing here describes a real model.${extra}</div>`;
  return notes.length > 0 ? html`<div class="sim">SIMULATED DATA:${extra}</div>` : '';
}

function sectionHtml(s: RenderedSection, simulated: boolean, rules: string[]): Html {
  const keep = (b: WideBox) => (rules.push(b.rule), b.html);
  return html`<section id="${s.section.id}"><h2>${s.section.title}</h2>
${s.content.paragraphs.map((p) => html`<p>${nb(p)}</p>\n`)}${s.charts.map((c) => keep(figureHtml(c.chart, c.svg, c.phone, simulated)))}
${(s.content.figures ?? []).map((f) => imagesHtml(f, simulated))}
${s.content.tables.map((t) => keep(tableHtml(t, simulated)))}
${examplesHtml(s.content.examples ?? [])}
</section>
`;
}

/**
 * The whole page. `scoresRel` is the scores folder relative to the report folder; `simulated`
 * says whether any input is simulated (respondents, judges or raters).
 */
export function pageHtml(
  ctx: ReportContext,
  sections: RenderedSection[],
  scoresRel: string,
  simulatedNotes: string[] = [],
): string {
  const h = ctx.header;
  const simulated = ctx.simulated || simulatedNotes.length > 0;
  const rules: string[] = [];
  const body = sections.map((s) => sectionHtml(s, simulated, rules));
  const toc = sections.map((s) => html`<li><a href="#${s.section.id}">${s.section.title}</a></li>`);
  const title = `stimkit report: ${h.bundle.study ?? h.bundle.digest.slice(0, 12)}${simulated ? ' (simulated)' : ''}`;
  // key results first; then what was reported (the inputs) and the contents
  const first = sections[0]?.section.id === KEY_RESULTS_ID ? 1 : 0;
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${trusted(CSS)}${trusted(rules.join('\n'))}
</style>
</head>
<body>
<header>
<h1>${title}</h1>
${bannerHtml(ctx, simulatedNotes)}
</header>
<main>
${body.slice(0, first)}<section id="about"><h2>What this report is from</h2>
<div class="meta">
${metaHtml(ctx, scoresRel)}</div>
</section>
<nav aria-label="Contents"><h2>Contents</h2><ol>${toc}</ol></nav>
${body.slice(first)}</main>
<footer><p class="files">Charts are vega-lite specs (charts/*.vl.json) rendered to SVG in Node; PNGs are rendered from the SVGs. Every chart's values are in tables/, and tables/README.csv says what every column means. Intervals and tests are described in each caption.</p></footer>
</body>
</html>
`.toString();
}
