/**
 * Checks every report must pass, shared by the report tests and the demo test: chart text
 * readable on white (WCAG 2 contrast ≥ 4.5:1, computed from the SVG's own fill attributes),
 * every chart file from simulated input marked SIMULATED (SVG text and PNG pixels), every CSV
 * table with a `simulated` column, and every table header in words with a described column.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import sharp from 'sharp';
import { expect } from 'vitest';

/** WCAG 2 relative luminance of a #rgb / #rrggbb colour. */
function luminance(hex: string): number {
  let h = hex.replace('#', '');
  if (h.length === 3)
    h = h
      .split('')
      .map((c) => c + c)
      .join('');
  const [r, g, b] = [0, 2, 4]
    .map((i) => parseInt(h.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG 2 contrast ratio of two colours. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const NAMED: Record<string, string> = { black: '#000000', white: '#ffffff' };

/** Every visible `<text>` of an SVG with its fill (vega writes the fill on each text element). */
export function svgTexts(svg: string): Array<{ text: string; fill: string }> {
  const out: Array<{ text: string; fill: string }> = [];
  for (const m of svg.matchAll(/<text\b([^>]*)>([^<]*)<\/text>/g)) {
    const attrs = m[1]!;
    const opacity = Number(/\sopacity="([\d.]+)"/.exec(attrs)?.[1] ?? 1);
    if (opacity === 0 || m[2]!.trim() === '') continue; // labels vega hid (overlap)
    expect(attrs, `text "${m[2]}" is not fully opaque`).not.toMatch(/fill-opacity="0?\.\d+"/);
    expect(opacity, `text "${m[2]}"`).toBe(1);
    const fill = /\sfill="([^"]+)"/.exec(attrs)?.[1] ?? '#000000';
    out.push({ text: m[2]!, fill: NAMED[fill] ?? fill });
  }
  return out;
}

/** Every chart's text reaches 4.5:1 on white. */
export async function expectReadableCharts(reportDir: string): Promise<number> {
  const dir = path.join(reportDir, 'charts');
  const svgs = (await readdir(dir)).filter((f) => f.endsWith('.svg'));
  expect(svgs.length).toBeGreaterThan(0);
  for (const f of svgs) {
    const texts = svgTexts(await readFile(path.join(dir, f), 'utf8'));
    expect(texts.length, f).toBeGreaterThan(0);
    for (const t of texts)
      expect(contrast(t.fill, '#ffffff'), `${f}: "${t.text}" in ${t.fill}`).toBeGreaterThanOrEqual(
        4.5,
      );
  }
  return svgs.length;
}

/** Every chart's SVG says SIMULATED DATA and its PNG shows the band (amber with dark red text). */
export async function expectSimulatedCharts(reportDir: string): Promise<void> {
  const dir = path.join(reportDir, 'charts');
  const files = await readdir(dir);
  for (const f of files.filter((x) => x.endsWith('.svg'))) {
    const svg = await readFile(path.join(dir, f), 'utf8');
    expect(svgTexts(svg).map((t) => t.text)[0], f).toMatch(/^SIMULATED DATA/);
    const png = sharp(path.join(dir, f.replace(/\.svg$/, '.png')));
    const { data, info } = await png.raw().toBuffer({ resolveWithObject: true });
    const px = (x: number, y: number) => {
      const i = (y * info.width + x) * info.channels;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    };
    // the band (#fff3cd) fills the top rows of the PNG; the words (#8a1c1c) are drawn in it
    expect(px(info.width - 6, 20), `${f} band`).toEqual([255, 243, 205]);
    let dark = 0;
    for (let y = 8; y < 40; y++)
      for (let x = 10; x < 220; x++) {
        const [r, g, b] = px(x, y);
        if (r! > 100 && r! < 200 && g! < 90 && b! < 90) dark++;
      }
    expect(dark, `${f}: SIMULATED words drawn in the PNG`).toBeGreaterThan(200);
  }
}

/** Every CSV table has a `simulated` column whose values are `expected` (1 or 0) in every row. */
export async function expectSimulatedColumn(
  reportDir: string,
  expected: (file: string, row: Record<string, string>) => string,
): Promise<string[]> {
  const dir = path.join(reportDir, 'tables');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.csv'));
  for (const f of files) {
    const rows = parse<Record<string, string>>(await readFile(path.join(dir, f), 'utf8'), {
      columns: true,
    });
    expect(rows.length, f).toBeGreaterThan(0);
    for (const r of rows) expect(r.simulated, `${f} ${JSON.stringify(r)}`).toBe(expected(f, r));
  }
  return files;
}

/**
 * Table headers on the page are words (no snake_case), every column of every CSV is in
 * tables/README.csv with a meaning, and every empty cell on the page says why it is empty.
 */
export async function expectDescribedTables(reportDir: string): Promise<void> {
  const html = await readFile(path.join(reportDir, 'index.html'), 'utf8');
  const headers = [...html.matchAll(/<th\b[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]!);
  expect(headers.length).toBeGreaterThan(0);
  for (const h of headers) expect(h, 'a header in words').not.toMatch(/^[a-z0-9]+(_[a-z0-9]+)+$/);
  const dictionary = parse<Record<string, string>>(
    await readFile(path.join(reportDir, 'tables', 'README.csv'), 'utf8'),
    {
      columns: true,
    },
  );
  const dir = path.join(reportDir, 'tables');
  for (const f of (await readdir(dir)).filter((x) => x.endsWith('.csv') && x !== 'README.csv')) {
    const [header] = parse(await readFile(path.join(dir, f), 'utf8'), { to_line: 1 });
    for (const column of header!) {
      const entry = dictionary.find((d) => d.table === f && d.column === column);
      expect(entry?.meaning, `${f} ${column}`).toBeTruthy();
      expect(entry!.meaning, `${f} ${column}`).not.toBe('(not described)');
      expect(entry!.unit, `${f} ${column}`).toBeTruthy();
    }
  }
  for (const m of html.matchAll(/<td class="empty" title="([^"]*)">/g))
    expect(
      m[1],
      `why the cell is empty: ${html.slice(Math.max(0, m.index - 300), m.index)}`,
    ).not.toMatch(/^(empty)?$/);
}

const chart = (reportDir: string, id: string) =>
  readFile(path.join(reportDir, 'charts', `${id}.svg`), 'utf8');

/** The fills of the `<path>` marks vega drew for `rect` marks (heat map and matrix cells). */
const cellFills = (svg: string) =>
  [...svg.matchAll(/aria-roledescription="rect mark"[^>]*\sfill="(#[0-9a-fA-F]{6})"/g)].map((m) =>
    m[1]!.toLowerCase(),
  );

/**
 * The chart defects a reader met, each checked in the SVG: no plot frame to strike through
 * direct labels; axis labels never rotated 90°; the ladder's legend in its lines' full colours;
 * the length chart without an outline colour; abstention cells above 0 % clearly tinted; the
 * confusion matrix's TP and TN told apart.
 */
export async function expectChartDetails(reportDir: string, ids: string[]): Promise<void> {
  for (const id of ids) {
    const svg = await chart(reportDir, id);
    expect(svg, `${id}: a plot frame`).not.toMatch(/<path class="background"[^>]*\sstroke="/);
    expect(svg, `${id}: axis labels turned 90°`).not.toMatch(
      /role-axis-label"[^>]*>(<text[^>]*>[^<]*<\/text>)*<text[^>]*rotate\((90|270|-90)\)/,
    );
  }
  if (ids.includes('audit-ladder')) {
    const legend = [
      ...(await chart(reportDir, 'audit-ladder')).matchAll(
        /role-legend-symbol"[^>]*><path[^>]*fill="([^"]+)"[^>]*opacity="([\d.]+)"/g,
      ),
    ].map((m) => [m[1], m[2]]);
    expect(legend).toEqual([
      ['#D55E00', '1'],
      ['#0072B2', '1'],
    ]);
  }
  if (ids.includes('audit-length'))
    expect(await chart(reportDir, 'audit-length')).not.toMatch(
      /aria-roledescription="bar"[^>]*stroke=/,
    );
  if (ids.includes('abstention-topic')) {
    const svg = await chart(reportDir, 'abstention-topic');
    const cells = [
      ...svg.matchAll(/aria-label="[^"]*abstention: (\d+)%"[^>]*\sfill="(#[0-9a-fA-F]{6})"/g),
    ].map((m) => ({ percent: Number(m[1]), fill: m[2]!.toLowerCase() }));
    expect(cells.length).toBeGreaterThan(0);
    for (const c of cells)
      if (c.percent === 0) expect(c.fill).toBe('#ffffff');
      else expect(contrast(c.fill, '#ffffff'), `a ${c.percent} % cell`).toBeGreaterThan(1.15);
  }
  if (ids.includes('audit-confusion')) {
    const fills = new Set(cellFills(await chart(reportDir, 'audit-confusion')));
    expect(fills.size).toBe(4);
    const [tp, tn] = ['#8fd1a8', '#e8e8e8'];
    expect([...fills]).toEqual(expect.arrayContaining([tp, tn]));
    expect(contrast(tp, tn)).toBeGreaterThan(1.4);
  }
}
