/**
 * The rater app's pages in Chromium, as a rater reads them: a response longer than the window is
 * in the page's own flow (page scrolling shows its last line, a cue says it goes on below until
 * then); a simulated response is under a SIMULATED banner in either interface language; the
 * highlighted question is the focused one after a click and a key; a held → moves one trial; the
 * arrow glyphs of the key hints are as large as a letter; corpus text carries no guessed language;
 * axe-core finds no serious or critical violation on the label screen (en, zh), the review screen
 * and the guide, at 1280 × 900 and at 400 px.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LabelSample } from '../../src/label/sample-schema.js';
import { serveLabels, type LabelServeOptions, type LabelServer } from '../../src/label/serve.js';
import {
  axeAtWindows,
  NO_FINDINGS,
  setWindow,
  sharedTab,
  skipBrowser,
  trackErrors,
} from '../helpers/browser.js';
import { heavyLimit } from '../helpers/limits.js';
import { tempDir } from '../helpers/tmp.js';
import { syntheticJudges, writeLabelSample } from './fixture.js';

// Chromium pages: the axe-core test, the longest (six pages at two widths), takes about 10 s on
// a quiet machine; every test here gets a limit scaled from that, not a fixed 60 s.
vi.setConfig({ testTimeout: heavyLimit(10), hookTimeout: heavyLimit(7) });

const SKIP = skipBrowser('test/label/rater-pages-browser.test.ts');

/** A response of `lines` numbered lines, the last one marked. */
const longResponse = (lines: number) =>
  `${Array.from({ length: lines - 1 }, (_, i) => `Line ${i + 1}: the image shows the launch pad and the smoke around it.`).join('\n')}\nTHE LAST LINE, where a reframing often is.`;

describe.skipIf(SKIP)('rater app pages in Chromium', () => {
  let sampleFile: string;
  let judges: string;
  /**
   * The worker's one tab (its pages keep nothing between files): each test opens a server of its
   * own in it (a port of its own, so an origin, cookie and storage of its own).
   */
  let tab: Page;
  const servers: LabelServer[] = [];
  let errors: string[] = [];

  beforeAll(async () => {
    const dir = await tempDir('stimkit-label-pages-');
    const fx = await writeLabelSample(dir, 6, 3);
    // Item 1: a long simulated response; item 2: a short one by a model.
    const sample = JSON.parse(await readFile(fx.sampleFile, 'utf8')) as LabelSample;
    sample.items[0] = { ...sample.items[0]!, response: longResponse(60), simulated: true };
    sample.items[1] = { ...sample.items[1]!, simulated: false };
    sampleFile = path.join(dir, 'sample-long.json');
    await writeFile(sampleFile, JSON.stringify(sample));
    judges = path.join(dir, 'judges.jsonl');
    await writeFile(judges, syntheticJudges(sample.items));
    tab = await sharedTab();
  });

  afterEach(async () => {
    // The tab leaves the test's pages before their servers close (as closing it did): nothing of
    // them runs on to log an error into the next test. A test's window goes with it.
    await sharedTab();
    while (servers.length) await servers.pop()!.close();
    expect(errors).toEqual([]);
    errors = [];
  });

  async function open(rater: string, extra: Partial<LabelServeOptions> = {}): Promise<Page> {
    const server = await serveLabels({ sample: sampleFile, rater, port: 0, ...extra });
    servers.push(server);
    // One tab (a new tab costs its own renderer set-up): the errors are counted anew.
    tab.removeAllListeners('console').removeAllListeners('pageerror');
    errors = trackErrors(tab);
    await tab.goto(server.running.url);
    await tab.waitForURL(/\/item\/\d+$/);
    return tab;
  }

  /** Whether, at some scroll position of the page, the response's last line is seen unclipped. */
  const lastLineSeen = (page: Page) =>
    page.evaluate<boolean>(`(() => {
      const r = document.getElementById('response');
      for (let y = 0; y <= document.documentElement.scrollHeight; y += 100) {
        window.scrollTo(0, y);
        const b = r.getBoundingClientRect();
        const at = b.bottom - 8;
        if (at < 0 || at > window.innerHeight) continue;
        const hit = document.elementFromPoint(b.left + 20, at);
        if (hit && (hit === r || r.contains(hit))) return true;
      }
      return false;
    })()`);

  it('shows the whole of a long response by page scrolling, with a cue until its end', async () => {
    const page = await open('long', { lang: 'en' });
    expect(await page.locator('#response').textContent()).toContain('THE LAST LINE');
    expect(await page.locator('#more').isVisible()).toBe(true);
    expect(await lastLineSeen(page)).toBe(true);
    await expect.poll(() => page.locator('#more').isVisible()).toBe(false);
    // A short response still stays in view while the questions are answered.
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/\/item\/2$/);
    expect(await page.locator('#more').isVisible()).toBe(false);
    await page.locator('#note').scrollIntoViewIfNeeded();
    const b = (await page.locator('#response').boundingBox())!;
    expect(b.y).toBeGreaterThanOrEqual(0);
    expect(b.y + b.height).toBeLessThanOrEqual(900);
  });

  it('says SIMULATED over a simulated response, in English and in Chinese', async () => {
    const en = await open('sim-en', { lang: 'en' });
    expect(await en.locator('#simulated').textContent()).toContain('SIMULATED');
    expect(await en.locator('#simulated').isVisible()).toBe(true);
    await en.keyboard.press('n');
    await en.waitForURL(/\/item\/2$/);
    expect(await en.locator('#simulated').count()).toBe(0);
    const zh = await open('sim-zh', { lang: 'zh' });
    expect(await zh.locator('#simulated').textContent()).toContain('模拟数据');
  });

  it('keeps the focus on the highlighted question after a click and an arrow key', async () => {
    const page = await open('focus', { lang: 'en' });
    const same = () =>
      page.evaluate<boolean>(
        "document.querySelector('fieldset.q.current').contains(document.activeElement)",
      );
    await page.locator('input[name=d1][value=false]').click();
    expect(await same()).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('fieldset.q.current').getAttribute('id')).toBe('q-d3');
    expect(await same()).toBe(true);
    await page.keyboard.press('t');
    expect(await page.locator('input[name=d3]:checked').getAttribute('value')).toBe('true');
    expect(await page.locator('input[name=d2]:checked').count()).toBe(0);
    expect(await same()).toBe(true);
  });

  it('moves one trial while → is held', async () => {
    const page = await open('held', { lang: 'en' });
    await page.keyboard.down('ArrowRight');
    await page.waitForURL(/\/item\/2$/);
    await page.waitForLoadState('load');
    for (let i = 0; i < 4; i++) await page.keyboard.down('ArrowRight'); // repeat: true
    await page.waitForTimeout(600);
    await page.keyboard.up('ArrowRight');
    expect(new URL(page.url()).pathname).toBe('/item/2');
  });

  it('draws the arrow keys as large as the letter keys', async () => {
    const page = await open('glyphs', { lang: 'en' });
    // The ink of each glyph in its own <kbd>'s font: an arrow's long side against a T's height.
    const sizes = await page.evaluate<Array<{ key: string; ink: number; letter: number }>>(`(() => {
      const ctx = document.createElement('canvas').getContext('2d');
      return [...document.querySelectorAll('kbd')].filter((k) => /[←→↑↓]/.test(k.textContent)).map((k) => {
        const s = getComputedStyle(k);
        ctx.font = s.fontSize + ' ' + s.fontFamily;
        const a = ctx.measureText(k.textContent.trim()), t = ctx.measureText('T');
        return { key: k.textContent, ink: Math.max(a.actualBoundingBoxRight + a.actualBoundingBoxLeft,
          a.actualBoundingBoxAscent + a.actualBoundingBoxDescent),
          letter: t.actualBoundingBoxAscent + t.actualBoundingBoxDescent };
      });
    })()`);
    expect(sizes.length).toBeGreaterThan(0);
    for (const s of sizes) expect(s.ink, s.key).toBeGreaterThanOrEqual(1.1 * s.letter);
  });

  it('tags no corpus text with a guessed language', async () => {
    for (const lang of ['en', 'zh'] as const) {
      const page = await open(`lang-${lang}`, { lang });
      for (let i = 1; i <= 4; i++) {
        // item 1 is the one open() showed: read as loaded, not loaded again
        if (new URL(page.url()).pathname !== `/item/${i}`)
          await page.goto(new URL(`/item/${i}`, page.url()).toString());
        const tags = await page.evaluate<string[]>(
          "[...document.querySelectorAll('[lang]')].map((e) => e.getAttribute('lang'))",
        );
        expect(new Set(tags), `item ${i}`).toEqual(
          new Set(tags.filter((t) => ['en', 'zh', 'zh-Hans', 'und'].includes(t))),
        );
      }
    }
  });

  it('has no serious or critical axe-core violation (label en/zh, review, guide; wide, 400 px, 200 %)', async () => {
    const review = await serveLabels({ sample: sampleFile, rater: 'axe', port: 0, judges });
    servers.push(review);
    for (const lang of ['en', 'zh'] as const) {
      const page = await open(`axe-${lang}`, { lang });
      const urls = [page.url(), new URL('/item/2', page.url()).toString()];
      urls.push(new URL('/guide', page.url()).toString());
      // The review screen is one server's, the same page whichever label screen came before it
      // (its language is its rater's): checked once, after the English screens.
      if (lang === 'en') urls.push(review.running.url);
      // Each page is loaded once and checked wide, then resized to 400 px and zoomed to 200 % (as a
      // user resizes or zooms a window; the app's script follows a resize).
      for (const url of urls) {
        if (page.url() !== url) await page.goto(url); // the first is open already
        expect(await axeAtWindows(page), url).toEqual(NO_FINDINGS);
      }
      // the next screen opens in the window the others have (1,280 × 900)
      expect(await setWindow(page, 1280, 900)).toEqual({ width: 1280, ratio: 1 });
    }
  });
});
