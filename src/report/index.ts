/** The report stage: sections, charts (vega-lite → SVG → PNG) and the self-contained HTML page. */
export {
  buildReport,
  reportContext,
  REPORT_FORMAT,
  REPORT_VERSION,
  type ReportResult,
} from './build.js';
export {
  CHART_CONFIG,
  FONT_FAMILY,
  prefixSvgIds,
  renderChart,
  type RenderedChart,
} from './chart.js';
export { dictionaryCsv, tableCsv } from './csv.js';
export { describeColumn, describeTable, type ColumnDefs, type ColumnInfo } from './dictionary.js';
export { fmt, type Unit } from './format.js';
export { tableHtml } from './html.js';
export { markSimulatedSvg } from './simulated.js';
export { SECTIONS } from './registry.js';
export type {
  CsvRows,
  ReportChart,
  ReportContext,
  ReportSection,
  ReportTable,
  SectionContent,
} from './types.js';
