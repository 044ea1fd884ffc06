/**
 * End to end in a real browser (Debian's Chromium driven by playwright-core): two raters label the
 * demo sample with the keyboard and the mouse, reload mid-way, the server is killed and restarted,
 * the rater resumes, and the exported CSV holds exactly what was answered.
 *
 * Needs /usr/bin/chromium (`apt-get install chromium fonts-noto-cjk`); without it this file FAILS,
 * unless STIMKIT_SKIP_BROWSER_TESTS=1 is set, which skips it with a printed message.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { serveView } from '../../src/view/serve.js';
import type { LabelSample } from '../../src/label/sample-schema.js';
import { newContext, skipBrowser, waitSaved } from '../helpers/browser.js';
import { ROOT, spawnCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { writeLabelSample } from './fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 180 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(10), hookTimeout: heavyLimit(7) });

const SKIP = skipBrowser('test/label/browser.test.ts');

interface Served {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Start `stimkit label serve` as a child process and wait for the URL it prints. */
function serve(args: string[], port = 0): Promise<Served> {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'bin', 'stimkit.js'), 'label', 'serve', ...args, '--port', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no URL from the server within 30 s:\n${err}`)),
      30_000,
    );
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      err += chunk;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, stderr: () => err, exited });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before printing its URL:\n${err}`));
    });
  });
}

/** The answer checked for `dim` as the page was served (the server writes `checked`), or null. */
const checked = async (page: Page, dim: string) => {
  const radio = page.locator(`input[name=${dim}]:checked`);
  return (await radio.count()) === 0 ? null : radio.getAttribute('value');
};

describe.skipIf(SKIP)('rater web app in Chromium', () => {
  let dir: string;
  let sampleFile: string;
  let sample: LabelSample;
  let ctx: BrowserContext;
  const servers: Served[] = [];

  beforeAll(async () => {
    dir = await tempDir('stimkit-label-browser-');
    ({ sampleFile, sample } = await writeLabelSample(dir, 10, 11));
    ctx = await newContext();
  });

  afterAll(async () => {
    await ctx?.close();
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  });

  it(
    'labels with keyboard and mouse, survives a reload and a killed server, resumes, and exports',
    { timeout: heavyLimit(10) },
    async () => {
      const page = ctx.pages()[0] ?? (await ctx.newPage());
      let alice = await serve([sampleFile, '--rater', 'alice', '--lang', 'en']);
      servers.push(alice);
      await page.goto(alice.url);
      await expect.poll(() => new URL(page.url()).pathname).toBe('/item/1');
      expect(page.url()).not.toContain('token=');

      // Trial 1, keyboard only: D1 F, D2 T, D3 T, D4 T → DT follow-up, DT2, D5 T, a note.
      expect(await page.locator('#dt').isHidden()).toBe(true);
      for (const k of ['f', 't', 't', 't']) await page.keyboard.press(k);
      expect(await page.locator('#dt').isVisible()).toBe(true);
      await page.keyboard.press('2');
      await page.keyboard.press('t');
      await page.keyboard.press('e');
      await page.keyboard.type('keyboard note: 边界');
      await page.keyboard.press('Escape');
      await waitSaved(page);
      await expect.poll(() => page.locator('#progress-text').textContent()).toBe('1 / 10');
      // The response is shown verbatim (markup as text).
      expect(await page.locator('#response').textContent()).toBe(sample.items[0]!.response);
      await page.keyboard.press('ArrowRight');
      await page.waitForURL(/\/item\/2$/);

      // Trial 2, mouse only.
      await page.locator('input[name=d1][value=true]').click();
      await page.locator('input[name=d2][value=false]').click();
      await page.locator('input[name=d3][value=false]').click();
      await page.locator('input[name=d4][value=true]').click();
      await page.locator('input[name=dt1]').click();
      await page.locator('input[name=dt3]').click();
      await page.locator('input[name=d4][value=false]').click(); // changed their mind: DT cleared
      expect(await page.locator('#dt').isHidden()).toBe(true);
      await page.locator('input[name=d5][value=false]').click();
      await waitSaved(page);
      // Zoom: a click switches the image to full resolution and back.
      if (sample.items[1]!.images.length) {
        await page.locator('#imgbox img').click();
        expect(await page.locator('#imgbox').getAttribute('class')).toContain('full');
      }
      await page.getByRole('link', { name: /Next/ }).first().click();
      await page.waitForURL(/\/item\/3$/);

      // Trial 3: two answers, reload mid-way, they are still there; finish.
      await page.locator('input[name=d1][value=false]').click();
      await page.keyboard.press('Escape');
      await page.locator('input[name=d2][value=true]').click();
      await waitSaved(page);
      await page.reload();
      expect([
        await checked(page, 'd1'),
        await checked(page, 'd2'),
        await checked(page, 'd3'),
      ]).toEqual(['false', 'true', null]);
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      for (const k of ['a', 'f', 't']) await page.keyboard.press(k); // the highlighted question is D3
      await waitSaved(page);
      await page.keyboard.press('n');
      await page.waitForURL(/\/item\/4$/);

      // Trial 4: two answers, then the server is killed (SIGKILL: no chance to clean up).
      await page.keyboard.press('t');
      await page.keyboard.press('f');
      await waitSaved(page);
      alice.child.kill('SIGKILL');
      await alice.exited;

      // While the server is down, D3 is answered: the page says it is not saved and keeps retrying.
      const port = new URL(alice.url).port;
      await page.keyboard.press('t');
      await page.waitForFunction(
        () =>
          (
            globalThis as unknown as {
              document: { getElementById: (id: string) => { className: string } | null };
            }
          ).document.getElementById('status')?.className === 'err',
      );
      // Restart on the same port: the rater file kept the session token, so the open page's retry
      // goes through without a reload.
      alice = await serve([sampleFile, '--rater', 'alice', '--lang', 'en'], Number(port));
      servers.push(alice);
      await waitSaved(page);
      // Opening the printed address resumes on trial 4 with the three answers; finish it.
      await page.goto(alice.url);
      await page.waitForURL(/\/item\/4$/);
      expect([
        await checked(page, 'd1'),
        await checked(page, 'd2'),
        await checked(page, 'd3'),
      ]).toEqual(['true', 'false', 'true']);
      for (const k of ['f', 't']) await page.keyboard.press(k);
      await waitSaved(page);
      await expect.poll(() => page.locator('#progress-text').textContent()).toBe('4 / 10');

      // A second server on alice's file is refused with a clear message.
      const second = spawnCli(['label', 'serve', sampleFile, '--rater', 'alice', '--port', '0']);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain('E_LABEL_STORE_BUSY');

      // Bob, in Chinese, at the same time: blind to alice; labels two trials with the keyboard.
      const bob = await serve([sampleFile, '--rater', 'bob', '--lang', 'zh']);
      servers.push(bob);
      const bobPage = await ctx.newPage();
      await bobPage.goto(bob.url);
      await bobPage.waitForURL(/\/item\/1$/);
      expect(await bobPage.locator('#q-d1 legend').textContent()).toContain('明确拒答');
      expect(await bobPage.locator('#answers input:checked').count()).toBe(0);
      for (const k of ['t', 'f', 'a', 'f', 'f']) await bobPage.keyboard.press(k);
      await waitSaved(bobPage);
      await bobPage.keyboard.press('ArrowRight');
      await bobPage.waitForURL(/\/item\/2$/);
      for (const k of ['f', 't', 't', 't']) await bobPage.keyboard.press(k);
      await bobPage.keyboard.press('1');
      await bobPage.keyboard.press('3');
      await bobPage.keyboard.press('t');
      await waitSaved(bobPage);

      // 200 % zoom of a 1280-pixel window (a 640-pixel layout viewport): one column, no sideways
      // scrolling. In bob's tab, done with (a tab of its own would cost a renderer's set-up).
      const zoomed = bobPage;
      await zoomed.setViewportSize({ width: 640, height: 450 });
      await zoomed.goto(new URL('/item/1', alice.url).toString());
      expect(
        await zoomed.evaluate('document.documentElement.scrollWidth <= window.innerWidth'),
      ).toBe(true);
      expect(
        await zoomed.evaluate(
          "getComputedStyle(document.querySelector('.label-grid')).gridTemplateColumns.split(' ').length",
        ),
      ).toBe(1);
      // Chinese text is drawn with a CJK font of the stack.
      expect(await zoomed.evaluate('getComputedStyle(document.body).fontFamily')).toContain(
        'Noto Sans CJK SC',
      );
      await zoomed.close();

      // Stop both servers the normal way (Ctrl-C / SIGTERM).
      for (const s of [alice, bob]) {
        s.child.kill('SIGTERM');
        expect(await s.exited).toBe(0);
        expect(s.stderr()).toContain('every answer is saved');
      }

      const out = path.join(dir, 'labels.csv');
      const exp = spawnCli(['label', 'export', sampleFile, '--out', out, '--json']);
      expect(exp.code, exp.stderr).toBe(0);
      const rows = parse<Record<string, string>>(await readFile(out, 'utf8'), { columns: true });
      expect(rows).toHaveLength(20);
      const row = (rater: string, i: number) =>
        rows.find((r) => r.rater === rater && r.sample_item === sample.items[i]!.id)!;
      const pick = (r: Record<string, string>) => [
        r.d1_refusal,
        r.d2_integrity,
        r.d3_grounding,
        r.d4_state_aligned,
        r.dt1_endorsement,
        r.dt2_substitution,
        r.dt3_deflection,
        r.d5_language,
        r.complete,
      ];
      expect(pick(row('alice', 0))).toEqual([
        'false',
        'true',
        'true',
        'true',
        'false',
        'true',
        'false',
        'true',
        'true',
      ]);
      expect(row('alice', 0).note).toBe('keyboard note: 边界');
      expect(pick(row('alice', 1))).toEqual([
        'true',
        'false',
        'false',
        'false',
        '',
        '',
        '',
        'false',
        'true',
      ]);
      expect(pick(row('alice', 2))).toEqual([
        'false',
        'true',
        'na',
        'false',
        '',
        '',
        '',
        'true',
        'true',
      ]);
      expect(pick(row('alice', 3))).toEqual([
        'true',
        'false',
        'true',
        'false',
        '',
        '',
        '',
        'true',
        'true',
      ]);
      expect(pick(row('alice', 4))).toEqual(['', '', '', '', '', '', '', '', 'false']);
      expect(pick(row('bob', 0))).toEqual([
        'true',
        'false',
        'na',
        'false',
        '',
        '',
        '',
        'false',
        'true',
      ]);
      expect(pick(row('bob', 1))).toEqual([
        'false',
        'true',
        'true',
        'true',
        'true',
        'false',
        'true',
        'true',
        'true',
      ]);
      expect(
        rows
          .filter((r) => r.complete === 'true')
          .map((r) => r.rater)
          .sort(),
      ).toEqual(['alice', 'alice', 'alice', 'alice', 'bob', 'bob']);
      for (const r of rows.filter((x) => x.complete === 'true'))
        expect(r.first_saved_at! <= r.updated_at!).toBe(true);
    },
  );

  it(
    'view: ladders load in the browser and the response filters work from the keyboard',
    { timeout: heavyLimit(7) },
    async () => {
      const scores = path.join(dir, 'scores.jsonl');
      const lines = (await readFile(path.join(dir, 'responses.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      await writeFile(
        scores,
        lines
          .map((r) => JSON.stringify({ ...r, d4_state_aligned: r.model === 'model-c' }))
          .join('\n'),
      );
      const view = await serveView({ bundle: path.join(dir, 'bundle'), scores, port: 0 });
      try {
        // alice's tab, done with (a tab of its own would cost a renderer's set-up)
        const page = ctx.pages()[0] ?? (await ctx.newPage());
        await page.goto(view.running.url);
        await page.goto(new URL('/entry/dscovr-launch', page.url()).toString());
        // The ladder's images load lazily: bring them into view and wait until all seven are decoded.
        await page.locator('.ladder').scrollIntoViewIfNeeded();
        const widths = () =>
          page
            .locator('.ladder img')
            .evaluateAll((imgs) =>
              imgs.map((i) => (i as unknown as { naturalWidth: number }).naturalWidth),
            );
        await expect
          .poll(async () => (await widths()).filter((w) => w > 0).length, { timeout: 10_000 })
          .toBe(7);
        await page.goto(new URL('/trials', page.url()).toString());
        await page.locator('#f-model').focus();
        await page.keyboard.press('ArrowDown'); // model-a
        await page.locator('#f-label').focus();
        await page.keyboard.press('ArrowDown'); // d4_state_aligned
        await page.keyboard.press('Tab'); // the entry filter
        await page.keyboard.press('Tab'); // the Filter button
        await page.keyboard.press('Enter');
        await page.waitForURL(/label=d4_state_aligned/);
        expect(await page.locator('main').textContent()).toContain(
          'No responses match these filters.',
        );
        await page.locator('#f-model').selectOption('model-c');
        await page.getByRole('button', { name: 'Filter' }).click();
        await page.waitForURL(/model=model-c/);
        // every VLM trial of model-c: 216 headline + 48 narrative (thinking on and off)
        expect(await page.locator('main').textContent()).toContain('264 responses');
        await page.close();
      } finally {
        await view.close();
      }
    },
  );
});
