/**
 * One number format for the report page: every number on the page (table cells, captions, chart
 * subtitles) is written by `fmt` from its unit, so a value reads the same wherever it appears and
 * a caption computed from a table's numbers shows the table's digits. CSV files keep the full
 * values; only the page rounds.
 *
 * | unit | page | e.g. |
 * | --- | --- | --- |
 * | count, pixels | integer | 1056 |
 * | proportion (0–1) | percent, one decimal | 4.2 % |
 * | percent | percent, one decimal | 70.5 % |
 * | stance, statistic, log-odds, odds ratio | three decimals | −0.027 |
 * | p | two significant digits; below 0.001 as "< 0.001" | 0.0034 |
 * | characters | as is (medians may end in .5) | 60.5 |
 * | usd | dollars, four decimals | $0.0123 |
 * | flag (1/0) | yes / no | yes |
 *
 * Negative numbers take the minus sign (U+2212), as the chart axes do; a no-break space keeps
 * "70.5 %" on one line.
 */

/** What a column's numbers measure; decides how the page writes them. */
export type Unit =
  | 'text'
  | 'count'
  | 'pixels'
  | 'proportion'
  | 'percent'
  | 'stance'
  | 'statistic'
  | 'log-odds'
  | 'odds ratio'
  | 'p'
  | 'characters'
  | 'usd'
  | 'flag';

/** The unit in words, for the data dictionary. */
export const UNIT_WORDS: Record<Unit, string> = {
  text: 'text',
  count: 'count',
  pixels: 'pixels',
  proportion: 'proportion 0–1 (the page shows it as a percentage)',
  percent: 'percent',
  stance: 'keyed stance, −2 (minus pole) … +2 (plus pole)',
  statistic: 'unitless statistic',
  'log-odds': 'log-odds',
  'odds ratio': 'odds ratio',
  p: 'p value (the page shows values below 0.001 as < 0.001)',
  characters: 'characters (Unicode code points)',
  usd: 'US dollars (the page shows four decimals)',
  flag: '1 = yes, 0 = no (the page shows yes / no)',
};

const minus = (s: string) => s.replace(/^-/, '\u2212');

/**
 * A number for a table's CSV cell: the value in full (the page rounds it by its unit when it shows
 * it; the CSV keeps what a reader checks against statsmodels); null for none or not finite, and −0
 * as 0.
 */
export function fullNumber(x: number | null | undefined): number | null {
  return x === null || x === undefined || !Number.isFinite(x) ? null : x + 0;
}

/** A number as the page writes it for `unit`; text is returned as is, null/'' as ''. */
export function fmt(v: string | number | boolean | null | undefined, unit: Unit): string {
  if (v === null || v === undefined || v === '') return '';
  if (unit === 'flag') return v === 1 || v === '1' || v === 'yes' || v === true ? 'yes' : 'no';
  if (typeof v !== 'number') return String(v);
  if (!Number.isFinite(v)) return String(v);
  switch (unit) {
    case 'count':
    case 'pixels':
      return minus(Number.isInteger(v) ? String(v) : v.toFixed(3));
    case 'proportion':
      return `${minus((100 * v).toFixed(1))}\u00a0%`;
    case 'percent':
      return `${minus(v.toFixed(1))}\u00a0%`;
    case 'p':
      return v < 0.001 ? '< 0.001' : v.toPrecision(2);
    case 'characters':
      return minus(Number.isInteger(v) ? String(v) : v.toFixed(1));
    case 'usd':
      return minus(`$${v.toFixed(4)}`.replace('$-', '-$'));
    case 'text': // a number in a text column: an integer as it is (a count), else as a statistic
      return Number.isInteger(v) ? minus(String(v)) : fmt(v, 'statistic');
    case 'stance':
    case 'statistic':
    case 'log-odds':
    case 'odds ratio':
      return minus(v.toFixed(3)).replace(/^\u22120\.000$/, '0.000');
  }
}
