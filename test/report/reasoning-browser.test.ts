/**
 * The report's "Reasoning" section in a real browser (Debian's Chromium): no serious or critical
 * axe-core violation at 1,280 px and at 400 px. Needs /usr/bin/chromium; without it this file
 * FAILS, unless STIMKIT_SKIP_BROWSER_TESTS=1 is set, which skips it with a printed message.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { reasoningSection } from '../../src/report/sections/reasoning.js';
import { axeViolations, setWindow, sharedTab } from '../helpers/browser.js';
import { skipBrowserTests } from '../helpers/chromium.js';
import { tempDir } from '../helpers/tmp.js';
import { reasoningScores } from '../score/reasoning-fixture.js';
import { heavyLimit } from '../helpers/limits.js';

const SKIP = skipBrowserTests('test/report/reasoning-browser.test.ts');

describe.skipIf(SKIP)('report: the reasoning section in a browser', () => {
  it(
    'has no serious or critical axe-core violation',
    async () => {
      const dir = await tempDir('stimkit-report-reasoning-axe-');
      const { scores } = await reasoningScores(dir);
      const out = path.join(dir, 'report');
      await buildReport(scores, out, [reasoningSection]);
      // One load in the worker's tab (a file:// page: nothing kept between files), checked wide
      // and then resized to 400 px (the report has no script: its layout is its stylesheet's alone).
      const page = await sharedTab();
      await page.goto(pathToFileURL(path.join(out, 'index.html')).href);
      expect(await page.locator('section#reasoning').count()).toBe(1);
      for (const width of [1280, 400]) {
        expect(await setWindow(page, width, 900)).toEqual({ width, ratio: 1 });
        expect(await axeViolations(page), `at ${width} px`).toEqual([]);
      }
    },
    heavyLimit(10),
  );
});
