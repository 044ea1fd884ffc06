/**
 * `stimkit view`'s list and trial pages in Chromium: a full-text search box (a Chinese query finds
 * its characters inside words), sorting by outcome and by a label, the models of a trial side by
 * side, J / K between the list's rows, a 404 page with the way back, and no serious or critical
 * axe-core violation on any page at 1,280 × 900 and at 400 px.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serveView, type ViewServer } from '../../src/view/serve.js';
import {
  axeAtWindows,
  NO_FINDINGS,
  sharedTab,
  skipBrowser,
  trackErrors,
} from '../helpers/browser.js';
import { heavyLimit } from '../helpers/limits.js';
import { tempDir } from '../helpers/tmp.js';
import { writeAuditScores, writeLabelFixture } from '../label/fixture.js';

// Chromium pages: the axe-core test, the longest (every page at two widths), takes about 10 s on
// a quiet machine; every test here gets a limit scaled from that, not a fixed 60 s.
vi.setConfig({ testTimeout: heavyLimit(10), hookTimeout: heavyLimit(7) });

const SKIP = skipBrowser('test/view/pages-browser.test.ts');

const NOT_FOUND = 'Failed to load resource: the server responded with a status of 404 (Not Found)';

type Row = Record<string, unknown> & { trial_id: string; model: string; response: string | null };

describe.skipIf(SKIP)('stimkit view pages in Chromium', () => {
  let view: ViewServer;
  let page: Page;
  let errors: string[];
  let rows: Row[];
  const url = (p: string) => new URL(p, view.running.url).toString();
  /** The trial × model of each row the list shows, in order. */
  const shown = () =>
    page
      .locator('tr.row')
      .evaluateAll((trs) =>
        trs.map(
          (tr) =>
            `${tr.querySelector('code')!.textContent} ${tr.querySelector('td[data-label=Model] bdi')!.textContent}`,
        ),
      );

  beforeAll(async () => {
    const dir = await tempDir('stimkit-view-pages-');
    const fx = await writeLabelFixture(dir);
    const scores = path.join(dir, 'scores.jsonl');
    await writeAuditScores(fx.responses, scores);
    // Outcomes as a ledger's scores carry them: every fifth row a provider block.
    rows = (await readFile(scores, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l, i) => ({
        ...(JSON.parse(l) as Row),
        outcome: i % 5 === 0 ? 'provider_block' : 'answer',
      }));
    await writeFile(scores, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    view = await serveView({ bundle: fx.bundle, scores, port: 0 });
    rows = rows.filter((r) => view.data.bundle.trialById.has(r.trial_id));
    page = await sharedTab(); // the server's origin is this file's (a port of its own)
    errors = trackErrors(page);
    await page.goto(view.running.url); // sets the session cookie
  });

  afterAll(async () => {
    await view?.close();
  });

  it('searches the response texts from a search box, a Chinese query inside words', async () => {
    await page.goto(url('/trials'));
    await page.locator('#f-q').fill('无法回答');
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=/);
    const want = rows.filter((r) => r.response?.includes('无法回答'));
    expect(want.length).toBeGreaterThan(0);
    expect(await shown()).toEqual(want.slice(0, 50).map((r) => `${r.trial_id} ${r.model}`));
    expect(await page.locator('nav.items span').first().textContent()).toContain(
      `${want.length} responses`,
    );
    // A part of a word (no word splitting), in any case.
    await page.goto(url('/trials?q=ACKGROUN'));
    const part = rows.filter((r) => r.response?.includes('ackgroun'));
    expect(part.length).toBeGreaterThan(0);
    expect(await page.locator('nav.items span').first().textContent()).toContain(
      `${part.length} responses`,
    );
    expect(errors).toEqual([]);
  });

  it('sorts the rows by outcome and by a label, ties in bundle order', async () => {
    for (const key of ['outcome', 'd4_state_aligned']) {
      await page.goto(url(`/trials?sort=${key}`));
      expect(await page.locator('#f-sort').inputValue()).toBe(key);
      // true before false (the rows a label holds for first), other values in order
      const value = (r: Row) => ({ true: ' 0', false: ' 1' })[String(r[key])] ?? String(r[key]);
      const want = rows
        .map((r, i) => ({ r, i }))
        .sort((a, b) => (value(a.r) < value(b.r) ? -1 : value(a.r) > value(b.r) ? 1 : a.i - b.i))
        .map(({ r }) => `${r.trial_id} ${r.model}`);
      expect(await shown(), key).toEqual(want.slice(0, 50));
    }
  });

  it("shows a trial's models side by side", async () => {
    const trial = rows[0]!.trial_id;
    await page.goto(url(`/trial/${trial}`));
    const tops = await page
      .locator('.models > section')
      .evaluateAll((s) => s.map((x) => Math.round(x.getBoundingClientRect().top)));
    expect(tops.length).toBe(rows.filter((r) => r.trial_id === trial).length);
    expect(tops.length).toBeGreaterThan(1);
    expect(new Set(tops).size).toBe(1);
  });

  it('moves between the rows of the list with J and K', async () => {
    await page.goto(url('/trials'));
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    const focused = () =>
      page.evaluate<string | null>(
        "document.activeElement.closest('tr.row code')?.textContent ?? document.activeElement.querySelector('code')?.textContent ?? null",
      );
    const ids = await shown();
    expect(await focused()).toBe(ids[1]!.split(' ')[0]);
    expect(await page.locator('tr.row.current').count()).toBe(1);
    await page.keyboard.press('k');
    expect(await focused()).toBe(ids[0]!.split(' ')[0]);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/trial\/t_/);
  });

  it('answers an unknown address with a 404 page that leads back', async () => {
    for (const p of ['/nothing-here', '/trial/t_000000000000000000000000', '/entry/nobody']) {
      const res = await page.goto(url(p));
      expect(res?.status(), p).toBe(404);
      expect(await page.locator('h2.page').textContent()).toBe('Not found');
      expect(await page.locator('main a[href="/trials"]').count()).toBe(1);
      expect(await page.locator('header nav a').count()).toBe(3);
    }
    // the browser logs each 404 it was answered with; nothing else
    expect(errors.splice(0)).toEqual(Array(3).fill(NOT_FOUND));
  });

  it('has no serious or critical axe-core violation on any page, wide, at 400 px and at 200 %', async () => {
    const pages = [
      '/',
      '/entry/dscovr-launch',
      '/ladders',
      '/trials',
      '/trials?q=%E6%8A%B1%E6%AD%89',
      `/trial/${rows[0]!.trial_id}`,
      '/nothing-here',
    ];
    // Each page is loaded once and checked wide, then resized to 400 px and zoomed to 200 % (as a
    // user resizes or zooms a window): the pages' layout is their stylesheets' alone.
    for (const p of pages) {
      await page.goto(url(p));
      if (p === '/nothing-here') expect(errors.splice(0)).toEqual([NOT_FOUND]);
      expect(await axeAtWindows(page), p).toEqual(NO_FINDINGS);
    }
    expect(errors).toEqual([]);
  });
});
