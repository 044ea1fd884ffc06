/**
 * Charts: a vega-lite spec compiled to vega and rendered to SVG in Node (no browser, no canvas),
 * then to PNG through sharp (librsvg; fonts through fontconfig). The font family lists a CJK font
 * first that fonts-noto-cjk installs, so Chinese labels render, then generic fallbacks.
 * Deterministic: same spec → same SVG bytes (no ids from clocks or counters across charts).
 */
import sharp from '../core/sharp.js';
import * as vega from 'vega';
import * as vegaLite from 'vega-lite';

/** The font stack of every chart and of the HTML page. */
export const FONT_FAMILY =
  "'Noto Sans CJK SC', 'Noto Sans', 'Noto Sans Arabic', 'Noto Serif Tibetan', 'DejaVu Sans', sans-serif";

/** The shared look of every chart. */
const CHART_CONFIG = {
  font: FONT_FAMILY,
  background: '#ffffff',
  // no frame: a frame strikes through direct labels that reach past the plot
  view: { stroke: null },
  axis: { labelFontSize: 11, titleFontSize: 12, gridColor: '#eeeeee' },
  legend: { labelFontSize: 11, titleFontSize: 12 },
  title: { fontSize: 14, anchor: 'start', subtitleFontSize: 11, subtitleColor: '#555555' },
} as const;

/**
 * vega-lite's logger at its default level, without the one warning a phone layout causes on
 * purpose: a chart whose rows are a fixed step tall keeps that height when fitted to the width
 * (src/report/phone.ts), which vega-lite reports as dropping "fit-y".
 */
const LOGGER = (() => {
  const base = vega.logger(vega.Warn);
  const warn = base.warn.bind(base);
  return Object.assign(base, {
    warn: (...args: readonly unknown[]) =>
      String(args[0]).startsWith('Dropping "fit-y"') ? base : warn(...args),
  });
})();

/** A rendered chart: its SVG, and its PNG still being drawn (off the main thread, by sharp). */
export interface RenderedChart {
  svg: string;
  png: Promise<Buffer>;
}

/**
 * Rename every `id` in an SVG (and its `url(#…)` / `href="#…"` references) to `<prefix>-<n>` in
 * order of appearance, so that several charts inlined in one page never share an id and the
 * bytes do not depend on how many charts vega drew before this one.
 */
function prefixSvgIds(svg: string, prefix: string): string {
  const ids = new Map<string, string>();
  for (const m of svg.matchAll(/\sid="([^"]+)"/g))
    if (!ids.has(m[1]!)) ids.set(m[1]!, `${prefix}-${ids.size + 1}`);
  if (ids.size === 0) return svg;
  return svg
    .replace(
      /(\sid=")([^"]+)(")/g,
      (_, a: string, id: string, b: string) => `${a}${ids.get(id) ?? id}${b}`,
    )
    .replace(/url\(#([^)]+)\)/g, (m, id: string) => (ids.has(id) ? `url(#${ids.get(id)})` : m))
    .replace(/(href=")#([^"]+)(")/g, (m, a: string, id: string, b: string) =>
      ids.has(id) ? `${a}#${ids.get(id)}${b}` : m,
    );
}

/** Colour of text drawn into charts (direct labels, cell values): 15.9:1 on white. */
export const TEXT_COLOUR = '#222222';

/**
 * Render a vega-lite spec (its `config` is merged over `CHART_CONFIG`) to SVG and PNG; `id`
 * prefixes the SVG's ids; `decorate` changes the SVG before the PNG is drawn from it. The PNG is
 * drawn in sharp's threads while the caller goes on (e.g. to the next chart's SVG), so the two
 * cores work at once; the bytes are the same as drawn one after another.
 */
export async function renderChart(
  spec: Record<string, unknown>,
  options: { scale?: number; id?: string; decorate?: (svg: string) => string } = {},
): Promise<RenderedChart> {
  const svg = await renderSvg(spec, options);
  const png = sharp(Buffer.from(svg), { density: 72 * (options.scale ?? 2) })
    .png({ compressionLevel: 9, adaptiveFiltering: false })
    .toBuffer();
  // handled here so that a failure waiting its turn is not reported as unhandled; awaiting `png`
  // still throws it
  png.catch(() => undefined);
  return { svg, png };
}

/** The SVG of a vega-lite spec alone (see `renderChart`), e.g. for a chart's phone layout on the page. */
export async function renderSvg(
  spec: Record<string, unknown>,
  options: { id?: string; decorate?: (svg: string) => string } = {},
): Promise<string> {
  const full = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    ...spec,
    config: { ...CHART_CONFIG, ...((spec.config as object) ?? {}) },
  };
  const compiled = vegaLite.compile(full as vegaLite.TopLevelSpec, { logger: LOGGER }).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const drawn = prefixSvgIds(await view.toSVG(), options.id ?? 'chart');
  view.finalize();
  return options.decorate ? options.decorate(drawn) : drawn;
}
