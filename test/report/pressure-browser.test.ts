/**
 * The report's "Pressure" section in a real browser (Debian's Chromium), one page load at 400 px:
 * no serious or critical axe-core violation, and nothing of the section wider than the window but
 * a data table, which says so. Needs /usr/bin/chromium; without it this file FAILS, unless
 * STIMKIT_SKIP_BROWSER_TESTS=1 is set, which skips it with a printed message.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { pressureSection } from '../../src/report/sections/pressure.js';
import { axeViolations, sharedTab } from '../helpers/browser.js';
import { skipBrowserTests } from '../helpers/chromium.js';
import { heavyLimit } from '../helpers/limits.js';
import { tempDir } from '../helpers/tmp.js';
import { phoneOverflows } from './phone-check.js';
import { pressureScores } from './pressure-scores.js';

const SKIP = skipBrowserTests('test/report/pressure-browser.test.ts');

describe.skipIf(SKIP)('report: the pressure section in a browser', () => {
  it(
    'has no serious or critical axe-core violation at 400 px, and only its tables scroll',
    async () => {
      const dir = await tempDir('stimkit-report-pressure-axe-');
      await pressureScores(dir);
      const out = path.join(dir, 'report');
      await buildReport(dir, out, [pressureSection]);
      // the worker's tab (a file:// page: nothing kept between files), a 400 px window
      const page = await sharedTab();
      await page.setViewportSize({ width: 400, height: 900 });
      await page.goto(pathToFileURL(path.join(out, 'index.html')).href);
      expect(await page.locator('section#pressure').count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      const o = await phoneOverflows(page);
      expect(o.figures).toBe(1);
      expect(o.inFigures).toEqual([]);
      for (const b of o.boxes)
        expect(b, 'a box wider than the window').toMatchObject({ table: true, hint: true });
    },
    heavyLimit(10),
  );
});
