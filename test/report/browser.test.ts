/**
 * The report page in a real browser (Debian's Chromium driven by playwright-core), at a 1,400 px
 * window, at phone width (400 px) and at 200 % zoom (a 1,400 px window at device scale 2 is 700
 * CSS px): the page never scrolls sideways; content wider than the window scrolls in its own box
 * and then shows its hint; charts keep their size (readable text) instead of shrinking; at
 * 1,400 px wide content uses the window; headers are words; chart text has 4.5:1 contrast,
 * computed from the fills the browser paints.
 *
 * Needs /usr/bin/chromium; without it this file FAILS, unless STIMKIT_SKIP_BROWSER_TESTS=1 is
 * set, which skips it with a printed message.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { buildReport } from '../../src/report/build.js';
import { axeViolations, setWindow, sharedTab, trackErrors } from '../helpers/browser.js';
import { skipBrowserTests } from '../helpers/chromium.js';
import { tempDir } from '../helpers/tmp.js';
import { contrast } from './checks.js';
import { RESPONDENTS, respondentScores } from './fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 126 s a test, 252 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(7), hookTimeout: heavyLimit(14) });

const SKIP = skipBrowserTests('test/report/browser.test.ts');

/** What the page looks like at one window size, measured in the page. */
interface Layout {
  page: { scrollWidth: number; clientWidth: number };
  boxes: Array<{ id: string; overflows: boolean; hint: boolean; width: number }>;
  charts: Array<{ id: string; drawn: number; natural: number; models: number; overflows: boolean }>;
  headers: string[];
  texts: Array<{ text: string; fill: string }>;
}

/** Measured in the page (plain JavaScript: the tests are type-checked without the DOM library). */
const MEASURE = `(() => {
  const d = document.documentElement;
  const hex = (rgb) => '#' + (rgb.match(/\\d+/g) || []).slice(0, 3).map((n) => Number(n).toString(16).padStart(2, '0')).join('');
  return {
    page: { scrollWidth: d.scrollWidth, clientWidth: d.clientWidth },
    boxes: [...document.querySelectorAll('.wide')].filter((b) => b.offsetParent !== null).map((b) => {
      const hint = document.getElementById('hint-' + b.id);
      return {
        id: b.id,
        overflows: b.scrollWidth > b.clientWidth + 1,
        hint: getComputedStyle(hint).display !== 'none' && hint.offsetHeight > 0,
        width: b.clientWidth,
      };
    }),
    charts: [...document.querySelectorAll('.wide > svg')].filter((s) => s.parentElement.offsetParent !== null).map((s) => ({
      id: s.parentElement.id,
      models: [...s.querySelectorAll('text')].map((t) => t.textContent).filter((t) => /^sim-/.test(t)).length,
      overflows: s.parentElement.scrollWidth > s.parentElement.clientWidth + 1,
      drawn: s.getBoundingClientRect().width,
      natural: Number(s.getAttribute('width')),
    })),
    headers: [...document.querySelectorAll('th')].map((h) => h.textContent),
    texts: [...document.querySelectorAll('svg text')]
      .filter((t) => getComputedStyle(t).opacity !== '0' && t.textContent.trim() !== '')
      .map((t) => ({ text: t.textContent, fill: hex(getComputedStyle(t).fill) })),
  };
})()`;

const layout = (page: Page): Promise<Layout> => page.evaluate<Layout>(MEASURE);

// The page is loaded once and each test sets the window it reads the page at (as a user resizes
// or zooms a window): the report has no script, its layout is its stylesheet's alone.
describe.skipIf(SKIP)('the report page in Chromium', () => {
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    const dir = await tempDir('stimkit-report-browser-');
    const { scores } = await respondentScores(dir, RESPONDENTS, { iterations: 2, ptIterations: 0 });
    await buildReport(scores, path.join(dir, 'report'));
    page = await sharedTab(); // a file:// page: nothing kept between files
    errors = trackErrors(page);
    await page.goto(pathToFileURL(path.join(dir, 'report', 'index.html')).href);
  });

  const open = async (width: number, scale: number): Promise<Layout> => {
    expect(await setWindow(page, width, 900, scale)).toEqual({ width, ratio: scale });
    return layout(page);
  };

  for (const [name, width, scale] of [
    ['a 400 px phone', 400, 1],
    ['200 % zoom', 700, 2],
  ] as const)
    it(`at ${name}: no sideways page scroll; what does not fit scrolls in its box, with its hint`, async () => {
      const l = await open(width, scale);
      expect(l.page.scrollWidth).toBeLessThanOrEqual(l.page.clientWidth);
      expect(l.boxes.filter((b) => b.overflows).length).toBeGreaterThan(0);
      // the hint shows exactly where the box scrolls
      for (const b of l.boxes)
        expect(b.hint, `${b.id} overflows: ${b.overflows}`).toBe(b.overflows);
      // charts keep their natural size (11 px text), never shrunk to fit
      expect(l.charts.length).toBe(4);
      for (const c of l.charts) expect(c.drawn, c.id).toBeCloseTo(c.natural, 0);
      if (width === 400) {
        // on a phone every chart is its phone layout, which fits the window (the heat map
        // transposed, the others fitted): every model on the screen at once
        expect(l.charts.map((c) => c.id).every((id) => id.endsWith('-phone'))).toBe(true);
        for (const c of l.charts) expect(c.overflows, c.id).toBe(false);
        const scatter = l.charts.find((c) => c.id === 'chart-net-vs-swing-phone')!;
        expect(scatter.models).toBe(RESPONDENTS.length);
      }
    });

  it('at 1,400 px: wide content uses the window and fits, without hints', async () => {
    const l = await open(1400, 1);
    expect(l.page.scrollWidth).toBeLessThanOrEqual(l.page.clientWidth);
    // the charts; the key results' table, the tables, two per language section; one arm: no per-arm section
    expect(l.boxes.length).toBe(4 + 1 + 5 + 2);
    for (const b of l.boxes) {
      expect(b.overflows, b.id).toBe(false);
      expect(b.hint, b.id).toBe(false);
      expect(b.width, `${b.id} spans the window`).toBeGreaterThan(1300);
    }
  });

  it('has no serious or critical axe-core violation at 1,280 px, at 400 px and at 200 %; a <main>, a CSP, labelled SVGs', async () => {
    // 200 %: a 1,280 × 900 window zoomed is 640 × 450 CSS px at device scale 2
    for (const [width, height, scale] of [
      [1280, 900, 1],
      [400, 900, 1],
      [640, 450, 2],
    ] as const) {
      expect(await setWindow(page, width, height, scale)).toEqual({ width, ratio: scale });
      expect(await axeViolations(page), `at ${width} px`).toEqual([]);
      const shape = await page.evaluate<Record<string, unknown>>(`({
        main: document.querySelectorAll('main').length,
        csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content'),
        roleImgFigures: document.querySelectorAll('figure[role]').length,
        svgs: [...document.querySelectorAll('.wide > svg')].map((s) => [s.getAttribute('role'), s.getAttribute('aria-label') !== '', s.querySelector('title') !== null, s.querySelectorAll('[role]').length]),
        first: document.querySelector('main > section')?.id,
      })`);
      expect(shape).toMatchObject({ main: 1, roleImgFigures: 0, first: 'key-results' });
      expect(String(shape.csp)).toContain("default-src 'none'");
      for (const svg of shape.svgs as unknown[][]) expect(svg).toEqual(['img', true, true, 0]);
      expect(errors).toEqual([]);
    }
  });

  it('shows headers in words and chart text at 4.5:1 or more on white', async () => {
    const l = await open(1400, 1);
    expect(l.headers.length).toBeGreaterThan(20);
    for (const h of l.headers) expect(h).not.toMatch(/^[a-z0-9]+(_[a-z0-9]+)+$/);
    expect(l.texts.length).toBeGreaterThan(50);
    for (const t of l.texts)
      expect(contrast(t.fill, '#ffffff'), `"${t.text}" in ${t.fill}`).toBeGreaterThanOrEqual(4.5);
  });
});
