/**
 * Untrusted text stays text in the report: model names, a vendor and the study carry markup
 * (`<img src=x onerror=…>`, `</script>`, a quote that would end an attribute), a spreadsheet
 * formula (`=HYPERLINK(…)`) and a right-to-left override (U+202E). The page shows them as text,
 * the charts draw them as text, the CSV tables neutralise the formula, and nothing reorders. Any
 * escaping taken out of the page or its pieces makes this fail. Also: one model here is real, so
 * the `simulated` column is 0 on its rows and 1 on the simulated models' rows.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { readCsvObjects } from '../../src/core/csv.js';
import { pageHtml } from '../../src/report/page.js';
import type { ReportContext } from '../../src/report/types.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { expectSimulatedColumn } from './checks.js';
import { respondentScores } from './fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 252 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(14) });

const IMG = `<img src=x onerror=alert('img')>`;
const SCRIPT = `</script><script>alert('script')</script>`;
const FORMULA = `=HYPERLINK("http://evil.example/","open")`;
const RTL = `sim\u202Egnp.exe`;
const QUOTE = `x" onfocus="alert('attr')`;
const REAL = 'real-model';

const MODELS = [
  { name: IMG, origin: 'CN', vendor: QUOTE, seed: 1 },
  { name: SCRIPT, origin: 'CN', vendor: '@SUM(1+1)', seed: 2 },
  { name: FORMULA, origin: 'US', vendor: FORMULA, seed: 3 },
  { name: RTL, origin: 'US', vendor: '-2+3', seed: 4 },
  { name: REAL, origin: 'US', vendor: 'a real vendor', seed: 5 },
];

/** No markup from the data became markup; a raw `<` of it would open a tag. */
function expectInert(html: string): void {
  expect(html).not.toMatch(/<img[^>]*onerror/i);
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/\sonfocus="/i);
  expect(html).not.toContain('\u202E');
}

let dir: string;
let out: string;
let html: string;

beforeAll(async () => {
  dir = await tempDir('stimkit-report-hostile-');
  const { scores } = await respondentScores(
    dir,
    MODELS.map((m) => ({
      ...m,
      real: m.name === REAL,
      sim: {
        seed: m.seed,
        instrument: { conviction: m.origin === 'CN' ? -0.8 : 0.5, acquiescence: 0.3 },
      },
    })),
    { iterations: 2, ptIterations: 0 },
  );
  out = path.join(dir, 'report');
  const r = await runCli(['report', scores, '--out', out, '--json']);
  expect(r.code, r.stderr).toBe(0);
  html = await readFile(path.join(out, 'index.html'), 'utf8');
});

describe('report with hostile model names and vendors', () => {
  it('shows every hostile text as text on the page', () => {
    expectInert(html);
    // each one is there, escaped, in the tables, the banner and the inline charts
    expect(html).toContain(`&lt;img src=x onerror=alert(&#39;img&#39;)&gt;`);
    expect(html).toContain(`&lt;/script&gt;&lt;script&gt;alert(&#39;script&#39;)&lt;/script&gt;`);
    expect(html).toContain(`x&quot; onfocus=&quot;alert(&#39;attr&#39;)`);
    expect(html).toContain('sim[U+202E]gnp.exe');
    expect(html).toContain(`=HYPERLINK(&quot;http://evil.example/&quot;,&quot;open&quot;)`);
    const banner = /<div class="sim">[^]*?<\/div>/.exec(html)![0];
    expect(banner).toContain('&lt;img src=x');
  });

  it('draws the names as text in the chart files, with the override made visible', async () => {
    const charts = path.join(out, 'charts');
    for (const f of (await readdir(charts)).filter((x) => x.endsWith('.svg'))) {
      const svg = await readFile(path.join(charts, f), 'utf8');
      expectInert(svg);
    }
    const slope = await readFile(path.join(charts, 'language-slopegraph.svg'), 'utf8');
    expect(slope).toContain('&lt;img src=x onerror=');
    expect(slope).toContain('sim[U+202E]gnp.exe');
  });

  it('neutralises spreadsheet formulas in every CSV and keeps numbers as numbers', async () => {
    const tables = path.join(out, 'tables');
    let formulas = 0;
    let negatives = 0;
    for (const f of (await readdir(tables)).filter((x) => x.endsWith('.csv'))) {
      const rows = parse(await readFile(path.join(tables, f), 'utf8'));
      for (const cell of rows.flat()) {
        if (/^-\d/.test(cell)) {
          expect(Number(cell), `${f}: ${cell}`).not.toBeNaN();
          negatives++;
        } else expect(cell, f).not.toMatch(/^[=+\-@\t\r]/);
        if (cell.startsWith(`'=HYPERLINK(`)) formulas++;
      }
    }
    expect(formulas).toBeGreaterThan(5);
    expect(negatives).toBeGreaterThan(5);
    const overview = parse<Record<string, string>>(
      await readFile(path.join(tables, 'overview-models.csv'), 'utf8'),
      {
        columns: true,
      },
    );
    expect(overview.map((r) => [r.model, r.vendor])).toEqual(
      expect.arrayContaining([
        [`'${FORMULA}`, `'${FORMULA}`],
        [SCRIPT, `'@SUM(1+1)`],
        [RTL, `'-2+3`],
      ]),
    );
  });

  it('marks the simulated models’ rows simulated and the real model’s not', async () => {
    const files = await expectSimulatedColumn(out, (_, r) => (r.model === REAL ? '0' : '1'));
    expect(files).toContain('model-tests.csv');
    const tests = parse<Record<string, string>>(
      await readFile(path.join(out, 'tables', 'model-tests.csv'), 'utf8'),
      {
        columns: true,
      },
    );
    expect(tests.find((r) => r.model === REAL)?.simulated).toBe('0');
  });
});

describe('the page pieces escape what sections give them', () => {
  it('escapes section titles, paragraphs, captions, cells, alt texts and image labels', () => {
    const ctx = {
      header: {
        bundle: { digest: 'a'.repeat(64), study: IMG },
        inputs: [{ role: 'responses', file: SCRIPT, sha256: 'b'.repeat(64) }],
        counts: { records: 1, simulated: 1, models: [{ name: QUOTE, simulated: true }] },
        tool: { name: 'stimkit', version: RTL },
      },
      simulated: true,
    } as unknown as ReportContext;
    const table = {
      id: 'x',
      title: IMG,
      columns: ['model', 'n'],
      rows: [[SCRIPT, 1]],
      n: QUOTE,
      interval: RTL,
    };
    const page = pageHtml(
      ctx,
      [
        {
          section: {
            id: 'x',
            title: SCRIPT,
            applies: () => true,
            build: () => Promise.resolve(null!),
          },
          content: {
            paragraphs: [IMG],
            charts: [],
            tables: [table],
            figures: [
              {
                id: 'f',
                title: QUOTE,
                rows: [
                  {
                    label: IMG,
                    images: [
                      {
                        file: 'thumbs/a.png',
                        data: Buffer.alloc(0),
                        width: 1,
                        height: 1,
                        alt: QUOTE,
                        label: SCRIPT,
                      },
                    ],
                  },
                ],
                data: table,
              },
            ],
          },
          charts: [
            {
              chart: { id: 'c', title: IMG, alt: QUOTE, spec: {}, data: table },
              svg: '<svg width="10" height="10"></svg>',
              phone: null,
            },
          ],
        },
      ],
      SCRIPT,
      [IMG],
    );
    expectInert(page);
    expect(page.match(/&lt;img src=x/g)!.length).toBeGreaterThanOrEqual(8);
  });
});

describe('report --csv-raw', () => {
  it('writes the formulas as they are, and report.json records it', async () => {
    const raw = path.join(dir, 'report-raw');
    const r = await runCli(['report', path.join(dir, 'scores'), '--out', raw, '--csv-raw']);
    expect(r.code, r.stderr).toBe(0);
    const overview = readCsvObjects(
      await readFile(path.join(raw, 'tables', 'overview-models.csv'), 'utf8'),
      { raw: true },
    );
    expect(overview.map((x) => [x.model, x.vendor])).toEqual(
      expect.arrayContaining([
        [FORMULA, FORMULA],
        [RTL, '-2+3'],
      ]),
    );
    const header = (file: string) =>
      readFile(file, 'utf8').then((t) => JSON.parse(t) as { csv: string });
    expect((await header(path.join(raw, 'report.json'))).csv).toBe('raw');
    expect((await header(path.join(out, 'report.json'))).csv).toBe('safe');
  });
});
