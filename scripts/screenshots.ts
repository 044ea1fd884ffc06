/**
 * `node --import tsx scripts/screenshots.ts`: redraw the screenshots in docs/images/ (the label
 * screen in English and Chinese, answering D5 with the column kept in view, the shortcut list, the
 * guide, 200 % zoom, the review mode; the viewer's entries, entry, ladders, responses at 1,400 and
 * 400 px, a trial) from the demo bundle and synthetic responses (marked simulated); the demo
 * report's first screen (key results), its language-shift chart, and at 400 px its per-model tests
 * and two charts in their phone layouts (a scatter; the confusion matrices' panels wrapped),
 * from `stimkit demo` run into a temporary folder (a few minutes); with Debian's Chromium. Not
 * part of the tests; run it after UI changes and look at every image.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { runDemo } from '../src/demo/demo.js';
import { serveLabels } from '../src/label/serve.js';
import { serveView } from '../src/view/serve.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/helpers/chromium.js';
import { syntheticJudges, writeAuditScores, writeLabelSample } from '../test/label/fixture.js';

const OUT = path.join(import.meta.dirname, '..', 'docs', 'images');

/** One element of the page, as it is drawn. */
async function shotOf(page: Page, selector: string, name: string): Promise<void> {
  await page
    .locator(selector)
    .first()
    .screenshot({ path: path.join(OUT, name) });
  process.stderr.write(`wrote docs/images/${name}\n`);
}

/** The demo report: its first screen at 1,280 × 900, a chart, and two parts at 400 px. */
async function reportShots(ctx: BrowserContext, dir: string): Promise<void> {
  const out = path.join(dir, 'demo');
  const demo = await runDemo(out, { log: (line) => process.stderr.write(`demo: ${line}\n`) });
  if (!demo.ok || !demo.open) throw new Error('the demo failed: no report to draw');
  const url = pathToFileURL(path.join(out, demo.open)).href;
  const page = await ctx.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(url);
  await page.screenshot({ path: path.join(OUT, 'report-key-results.png') });
  process.stderr.write('wrote docs/images/report-key-results.png\n');
  await shotOf(page, '#chart-language-slopegraph > svg', 'report-slopegraph.png');
  // A phone: the wide table scrolls in its box and says so; a chart in its phone layout.
  await page.setViewportSize({ width: 400, height: 900 });
  await shotOf(page, '#instrument-tests', 'report-phone.png');
  await shotOf(page, 'figure:has(#chart-net-vs-swing-phone)', 'report-phone-chart.png');
  await shotOf(page, '#chart-audit-confusion-phone > svg', 'report-phone-panels.png');
  await page.close();
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'stimkit-shots-'));
const profile = await mkdtemp(path.join(os.tmpdir(), 'stimkit-shots-profile-'));
try {
  const { sampleFile, sample, ...fx } = await writeLabelSample(dir, 24, 42);
  // The responses are synthetic: the sample says so, as a sample drawn from a simulated run does.
  await writeFile(
    sampleFile,
    JSON.stringify({ ...sample, items: sample.items.map((i) => ({ ...i, simulated: true })) }),
  );
  const judges = path.join(dir, 'judges.jsonl');
  await writeFile(judges, syntheticJudges(sample.items));
  const scores = path.join(dir, 'scores');
  await mkdir(scores);
  await writeAuditScores(fx.responses, path.join(scores, 'scores.jsonl'));

  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1400, height: 1000 },
  });
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  const shot = async (p: Page, name: string, fullPage = true) => {
    await p.waitForLoadState('networkidle'); // lazily loaded images in view
    await p.evaluate('window.scrollTo(0, 0)');
    await p.screenshot({ path: path.join(OUT, name), fullPage });
    process.stderr.write(`wrote docs/images/${name}\n`);
  };

  for (const lang of ['en', 'zh'] as const) {
    const s = await serveLabels({ sample: sampleFile, rater: `shots-${lang}`, lang, port: 0 });
    await page.goto(s.running.url);
    await page.keyboard.press('f');
    await page.keyboard.press('t');
    await page.keyboard.press('t');
    await page.keyboard.press('t');
    await page.keyboard.press('2');
    await page.waitForSelector('#status:not(:empty)');
    await shot(page, `label-${lang}.png`);
    if (lang === 'en') {
      // Answering D5 with the image and the response in view (the sticky column).
      await page.locator('#q-d5').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(OUT, 'label-en-d5.png') });
      process.stderr.write('wrote docs/images/label-en-d5.png\n');
      await page.keyboard.press('?');
      await page.screenshot({ path: path.join(OUT, 'label-shortcuts.png') });
      process.stderr.write('wrote docs/images/label-shortcuts.png\n');
      await page.keyboard.press('Escape');
    }
    if (lang === 'zh') {
      await page.goto(new URL('/guide', page.url()).toString());
      await shot(page, 'label-guide-zh.png');
      await page.goBack();
      // 200 % zoom of a 1400-pixel window: the layout sees a 700-pixel viewport.
      await page.setViewportSize({ width: 700, height: 1000 });
      await page.reload();
      await shot(page, 'label-zh-200.png', false);
      await page.setViewportSize({ width: 1400, height: 1000 });
    }
    await s.close();
  }
  const r = await serveLabels({
    sample: sampleFile,
    rater: 'shots-review',
    lang: 'zh',
    port: 0,
    judges,
  });
  await page.goto(r.running.url);
  await shot(page, 'label-review.png');
  await r.close();

  const v = await serveView({ bundle: fx.bundle, scores, port: 0 });
  await page.goto(v.running.url);
  await shot(page, 'view-entries.png');
  await page.goto(new URL('/entry/dscovr-launch', v.running.url).toString());
  await shot(page, 'view-entry.png');
  await page.goto(
    new URL('/trials?paradigm=describe&lang=zh&label=d4_state_aligned', v.running.url).toString(),
  );
  await shot(page, 'view-responses.png');
  await page.locator('table.data tbody a').first().click();
  await shot(page, 'view-trial.png');
  await page.goto(new URL('/ladders', v.running.url).toString());
  await shot(page, 'view-ladders.png', false);
  // A phone-width window: the list becomes cards, nothing scrolls sideways.
  await page.setViewportSize({ width: 400, height: 900 });
  await page.goto(new URL('/trials?paradigm=describe&lang=en', v.running.url).toString());
  await shot(page, 'view-responses-400.png', false);
  await page.setViewportSize({ width: 1400, height: 1000 });
  await v.close();
  await reportShots(ctx, dir);
  await ctx.close();
} finally {
  await rm(dir, { recursive: true, force: true });
  await rm(profile, { recursive: true, force: true });
}
