/**
 * Simulated data can never pass for real: the report finds every simulated input (respondents,
 * judges, the validation's raters), says so in the page's banner, draws a SIMULATED band into
 * every chart made from it (so a chart pasted into slides still says so, in the SVG and in the
 * PNG rendered from it), and gives every CSV table a `simulated` column.
 */
import { escapeHtml } from '../core/html.js';
import type { Cell } from '../score/types.js';
import { FONT_FAMILY } from './chart.js';
import type { RowSimulated } from './csv.js';
import { validationState } from './sections/audit-data.js';
import type { ReportContext } from './types.js';

type JudgeParam = { name?: string; simulated?: boolean };

/** Banner sentences for simulated parts besides the respondents: simulated judges, and the validation's simulated raters. */
export async function simulatedNotes(ctx: ReportContext): Promise<string[]> {
  const notes: string[] = [];
  const audit = (
    ctx.header.params as { scorers?: Record<string, { judges?: JudgeParam[] }> } | undefined
  )?.scorers?.['vlm-audit'];
  const judges = (audit?.judges ?? []).filter((j) => j.simulated).map((j) => j.name);
  if (judges.length > 0)
    notes.push(
      `The judge label(s) come from ${judges.length} SIMULATED judge(s) (${judges.join(', ')}), drawn from the simulator\u2019s truth with set sensitivity and specificity.`,
    );
  const instrument = (
    ctx.header.params as
      { scorers?: { instrument?: { judge?: { judges?: JudgeParam[] } | null } } } | undefined
  )?.scorers?.instrument?.judge?.judges;
  const freeText = (instrument ?? []).filter((j) => j.simulated).map((j) => j.name);
  if (freeText.length > 0)
    notes.push(
      `The instrument\u2019s free-text answers were labelled by ${freeText.length} SIMULATED judge(s) (${freeText.join(', ')}).`,
    );
  if (ctx.header.files.some((f) => f.file === 'validation.json')) {
    const raters = (await validationState(ctx)).report?.simulated_raters ?? [];
    if (raters.length > 0)
      notes.push(
        `The human labels of the judge validation come from ${raters.length} SIMULATED rater(s) (${raters.join(', ')}), drawn from the simulator\u2019s truth with a set accuracy.`,
      );
  }
  return notes;
}

/**
 * Which rows are simulated: in a table with a `model` column, a row of a simulated respondent,
 * or any row when judges or raters were simulated (their labels feed the numbers); in other
 * tables every row when anything in the report is simulated.
 */
export function rowSimulated(ctx: ReportContext, simulatedLabels: boolean): RowSimulated {
  const models = new Map(ctx.header.counts.models.map((m) => [m.name, m.simulated]));
  const any = ctx.simulated || simulatedLabels;
  return (table, row: readonly Cell[]) => {
    const i = table.columns.indexOf('model');
    const model = i >= 0 ? models.get(String(row[i])) : undefined;
    return model === undefined ? any : model || simulatedLabels;
  };
}

/** Height of the SIMULATED band drawn above a chart, in px. */
const SIMULATED_BAND = 26;

/**
 * The chart's SVG with a SIMULATED band drawn above it: the drawing moves down by
 * `SIMULATED_BAND` px and the band says, in dark red on amber, that the data are simulated.
 */
export function markSimulatedSvg(svg: string): string {
  const open = /^<svg\b[^>]*>/.exec(svg);
  const size =
    open && /\bwidth="([\d.]+)" height="([\d.]+)" viewBox="0 0 [\d.]+ [\d.]+"/.exec(open[0]);
  if (!open || !size) throw new Error('markSimulatedSvg: not an SVG that vega wrote');
  const w = Number(size[1]);
  const h = Number(size[2]) + SIMULATED_BAND;
  const root = open[0].replace(size[0], `width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"`);
  const words =
    w >= 420 ? 'SIMULATED DATA \u2014 not measurements of real models' : 'SIMULATED DATA';
  const band =
    `<g class="stimkit-simulated" role="note" aria-label="${escapeHtml(words)}">` +
    `<rect width="${w}" height="${h}" fill="#ffffff"/>` +
    `<rect x="0.5" y="0.5" width="${w - 1}" height="${SIMULATED_BAND - 5}" fill="#fff3cd" stroke="#e0a800"/>` +
    `<text x="8" y="15.5" font-family="${escapeHtml(FONT_FAMILY)}" font-size="12px" font-weight="bold" fill="#8a1c1c">${escapeHtml(words)}</text></g>`;
  const body = svg.slice(open[0].length, svg.lastIndexOf('</svg>'));
  return `${root}${band}<g transform="translate(0,${SIMULATED_BAND})">${body}</g></svg>`;
}
