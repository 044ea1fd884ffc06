/**
 * The phone layout of a chart (the page shows it below 600 px; the chart files keep the wide
 * one): the same marks and data, laid out to fit `PHONE_WIDTH` so that nothing scrolls sideways.
 *
 * - a chart of panels (a vega-lite `facet` by column, and by row) becomes a wrapped facet, panels
 *   one under another (two side by side when they are small), each headed by its column's and its
 *   row's value;
 * - a heat map (nominal x and y, cells a fixed `step` wide) is transposed: its rows (the models,
 *   few) become the columns, its columns (the topics, many) the rows;
 * - any other single chart is fitted to the width, axis labels and legend included (vega's
 *   `autosize: fit-x`);
 * - legends go below the plot.
 */

/** The page's width on a phone, less its padding: wider charts get a phone layout. */
export const PHONE_WIDTH = 376;
/** Subtitle lines of a phone layout are broken at this many characters. */
export const PHONE_SUBTITLE_CHARS = 38;
/**
 * Title lines of a phone layout are broken at this many characters: vega measures text without a
 * browser by an estimate (0.8 × font size per character), which runs wide, so a 14 px title of
 * 43 characters would make the chart 491 px wide.
 */
const PHONE_TITLE_CHARS = 32;

/** `text` (a line or lines) broken at spaces into lines of at most `chars` characters (a longer word stays whole). */
export function wrapLines(text: string | string[], chars: number): string[] {
  return [text].flat().flatMap((line) => {
    const out: string[] = [];
    let cur = '';
    for (const word of line.split(' ')) {
      if (cur !== '' && cur.length + 1 + word.length > chars) {
        out.push(cur);
        cur = word;
      } else cur = cur === '' ? word : `${cur} ${word}`;
    }
    return [...out, cur];
  });
}

type Spec = Record<string, unknown>;
interface FacetField {
  field: string;
}

/** The phone layout of `spec` (a vega-lite spec with its data). */
export function phoneSpec(wide: Spec): Spec {
  const title = wide.title as { text?: string | string[] } | undefined;
  const spec =
    typeof title?.text === 'string' || Array.isArray(title?.text)
      ? { ...wide, title: { ...title, text: wrapLines(title.text, PHONE_TITLE_CHARS) } }
      : wide;
  const config = (spec.config as Spec | undefined) ?? {};
  const below = {
    ...config,
    legend: { labelFontSize: 11, titleFontSize: 12, orient: 'bottom', direction: 'horizontal' },
  };
  const facet = spec.facet as { column?: FacetField; row?: FacetField } | undefined;
  if (facet?.column) return { ...wrapPanels(spec, facet.column, facet.row), config: below };
  // panels by row only are one column already: narrower panels, the legend below
  if (facet) return { ...spec, spec: narrowPanels(spec), config: below };
  const layout = heatMap(spec) ? transpose(spec) : spec;
  return {
    ...layout,
    width: PHONE_WIDTH - 8,
    autosize: { type: 'fit-x', contains: 'padding' },
    config: below,
  };
}

/** Vega-lite's expression for a field's value (quoted: field names may hold any character). */
const value = (field: string) => `datum[${JSON.stringify(field)}]`;

/**
 * Panels by column (and row) as one wrapped facet on a computed panel name, `column · row`, in the
 * same order (by column, then row); short, as vega measures text by an estimate that runs wide.
 * Panels up to 100 px wide go two abreast, wider ones one under another.
 */
function wrapPanels(spec: Spec, column: FacetField, row: FacetField | undefined): Spec {
  const inner = narrowPanels(spec);
  const width = inner.width;
  const name = row ? `${value(column.field)} + ' · ' + ${value(row.field)}` : value(column.field);
  const { facet: _facet, spec: _spec, ...rest } = spec;
  return {
    ...rest,
    transform: [...((spec.transform as unknown[]) ?? []), { calculate: name, as: 'panel' }],
    facet: {
      field: 'panel',
      type: 'nominal',
      title: null,
      header: { labelFontWeight: 'bold', labelFontSize: 12 },
    },
    columns: typeof width === 'number' && width <= 100 ? 2 : 1,
    spec: inner,
  };
}

/** A faceted chart's inner spec with its panels at most 200 px wide. */
function narrowPanels(spec: Spec): Spec {
  const inner = (spec.spec as Spec | undefined) ?? {};
  return typeof inner.width === 'number' ? { ...inner, width: Math.min(inner.width, 200) } : inner;
}

/** A heat map: a single view whose x and y are nominal and whose cells are `step` wide. */
function heatMap(spec: Spec): boolean {
  const enc = spec.encoding as { x?: Spec; y?: Spec } | undefined;
  const step = (spec.width as { step?: number } | undefined)?.step;
  return step !== undefined && enc?.x?.type === 'nominal' && enc?.y?.type === 'nominal';
}

/** The heat map with x and y swapped: its rows become columns (labels slanted), its columns rows. */
function transpose(spec: Spec): Spec {
  const enc = spec.encoding as { x: Spec; y: Spec };
  const axis = (a: unknown, extra: Spec) => ({ ...((a as Spec | undefined) ?? {}), ...extra });
  return {
    ...spec,
    height: { step: 26 },
    encoding: {
      ...enc,
      x: { ...enc.y, axis: axis(enc.y.axis, { labelAngle: -30, orient: 'top' }) },
      y: { ...enc.x, axis: axis(enc.x.axis, { labelAngle: 0 }) },
    },
  };
}
