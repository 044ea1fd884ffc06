/**
 * A study in en, zh, zh-Hant, ru, ug and bo through the rater app, `stimkit view` and, scored,
 * `stimkit report` in Chromium (the report's language names in each language's script):
 * every prompt and response carries its study language's `lang` and `dir` (Uyghur right to left,
 * a brand name at its start kept in place and in its own order); only the response that drifted
 * into another script has a guessed language, flagged; and every letter of every text is drawn
 * with a real glyph, not the .notdef box (each letter drawn on a canvas in the element's font and
 * compared with the drawing of characters no font has).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { makeLabelSample } from '../../src/label/make-sample.js';
import { buildReport } from '../../src/report/build.js';
import { scoreToFolder } from '../../src/score/score.js';
import { serveLabels, type LabelServer } from '../../src/label/serve.js';
import { serveView, type ViewServer } from '../../src/view/serve.js';
import { sharedTab, skipBrowser, trackErrors } from '../helpers/browser.js';
import { tempDir } from '../helpers/tmp.js';
import {
  DRIFTED,
  LANGS,
  writeLanguagesFixture,
  type LanguagesFixture,
} from './languages-fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

const SKIP = skipBrowser('test/view/languages-browser.test.ts');

const DIR: Record<string, string> = { ug: 'rtl' };

/**
 * lang, dir, computed direction and guessed flag of one element, and the letters of its text drawn
 * as .notdef: each letter drawn on a canvas in the element's font and compared with the drawing of
 * code points no font has (private-use, unassigned), which show the .notdef box.
 */
interface Read {
  lang: string | null;
  dir: string | null;
  direction: string;
  guessed: string | null;
  tofu: string[];
}

/** The few browser objects the checks use (the tests are type-checked without the DOM library). */
interface Canvas2d {
  font: string;
  textBaseline: string;
  clearRect(x: number, y: number, w: number, h: number): void;
  fillText(text: string, x: number, y: number): void;
  getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
}
interface Browser {
  getComputedStyle(el: unknown): { fontSize: string; fontFamily: string; direction: string };
  document: {
    createElement(tag: 'canvas'): {
      width: number;
      height: number;
      getContext(kind: '2d', o: { willReadFrequently: boolean }): Canvas2d;
    };
    createRange(): {
      setStart(n: unknown, i: number): void;
      setEnd(n: unknown, i: number): void;
      getBoundingClientRect(): { left: number };
    };
  };
}

/**
 * lang, dir, computed direction and guessed flag of one element, and the letters of its text drawn
 * as .notdef: each letter drawn on a canvas in the element's font and compared with the drawing of
 * code points no font has (private-use, unassigned), which show the .notdef box.
 */
const read = (l: Locator): Promise<Read> =>
  l.evaluate((el) => {
    const w = globalThis as unknown as Browser;
    const style = w.getComputedStyle(el);
    const canvas = w.document.createElement('canvas');
    canvas.width = 96;
    canvas.height = 96;
    const g = canvas.getContext('2d', { willReadFrequently: true });
    g.font = `${style.fontSize} ${style.fontFamily}`;
    g.textBaseline = 'top';
    const draw = (ch: string) => {
      g.clearRect(0, 0, 96, 96);
      g.fillText(ch, 16, 16);
      const px = g.getImageData(0, 0, 96, 96).data;
      let h = 0;
      for (let i = 3; i < px.length; i += 4) h = (h * 31 + px[i]!) | 0;
      return h;
    };
    const notdef = new Set(['\uE000', '\uF8FF', '\u0378'].map(draw));
    const letters = new Set([...(el.textContent ?? '')].filter((c) => /\p{L}/u.test(c)));
    return {
      lang: el.getAttribute('lang'),
      dir: el.getAttribute('dir'),
      direction: style.direction,
      guessed: el.getAttribute('data-lang-guessed'),
      tofu: [...letters].filter((c) => notdef.has(draw(c))),
    };
  });

/** Where "SpaceX", "Falcon" and the word `after` are drawn, from the left (px). */
const positions = (l: Locator, after: string) =>
  l.evaluate(
    (el, words) => {
      const w = globalThis as unknown as Browser;
      const text = el.firstChild!;
      return words.map((word) => {
        const i = text.textContent!.indexOf(word);
        const r = w.document.createRange();
        r.setStart(text, i);
        r.setEnd(text, i + word.length);
        return r.getBoundingClientRect().left;
      });
    },
    ['SpaceX', 'Falcon', after],
  );

describe.skipIf(SKIP)('six study languages on the pages, in Chromium', () => {
  let fx: LanguagesFixture;
  let page: Page;
  let view: ViewServer;
  let label: LabelServer;
  let errors: string[];
  let dir: string;

  beforeAll(async () => {
    dir = await tempDir('stimkit-languages-');
    fx = await writeLanguagesFixture(dir);
    view = await serveView({ bundle: fx.bundle, scores: fx.responses, port: 0 });
    const sample = path.join(dir, 'sample.json');
    await makeLabelSample({
      bundle: fx.bundle,
      responses: fx.responses,
      out: sample,
      n: 7,
      seed: 1,
      paradigms: ['instrument'],
    });
    label = await serveLabels({ sample, rater: 'alice', lang: 'en', port: 0 });
    page = await sharedTab(); // the servers' origins are this file's (ports of their own)
    errors = trackErrors(page);
  });

  afterAll(async () => {
    await view?.close();
    await label?.close();
  });

  it('view: each trial page gives prompt and responses their language and direction, every glyph drawn', async () => {
    await page.goto(view.running.url);
    for (const lang of LANGS) {
      await page.goto(new URL(`/trial/${fx.trials[lang]}`, view.running.url).toString());
      const texts = page.locator('pre.verbatim');
      const prompt = await read(texts.first());
      const want = DIR[lang] ?? 'ltr';
      expect(prompt, lang).toEqual({ lang, dir: want, direction: want, guessed: null, tofu: [] });
      const answers = await Promise.all((await texts.all()).slice(1).map(read));
      const own = answers.filter((a) => a.guessed === null);
      expect(own, lang).toEqual([{ lang, dir: want, direction: want, guessed: null, tofu: [] }]);
      if (lang === 'zh') {
        expect(answers.find((a) => a.guessed)).toMatchObject({
          lang: 'en',
          dir: 'ltr',
          guessed: 'true',
        });
        expect(await page.locator('.lang-guess').textContent()).toContain(
          'language guessed: not in zh',
        );
      } else expect(answers.length, lang).toBe(1);
    }
    // Uyghur right to left: the brand name that starts the answer is at the right, in its order.
    await page.goto(new URL(`/trial/${fx.trials.ug}`, view.running.url).toString());
    const [spacex, falcon, next] = await positions(page.locator('pre.verbatim').nth(1), 'بۇنىڭغا');
    expect(spacex).toBeLessThan(falcon!);
    expect(next).toBeLessThan(spacex!);
    expect(errors).toEqual([]);
  });

  it('rater app: every item shows prompt and response in its language and direction, every glyph drawn', async () => {
    await page.goto(label.running.url);
    await page.waitForURL(/\/item\/\d+$/);
    const seen = new Map<string, unknown>();
    for (let i = 1; i <= 7; i++) {
      await page.goto(new URL(`/item/${i}`, label.running.url).toString());
      const prompt = await read(page.locator('#prompt'));
      const response = await read(page.locator('#response'));
      const text = await page.locator('#response').textContent();
      const lang = prompt.lang!;
      const want = DIR[lang] ?? 'ltr';
      expect(prompt, lang).toEqual({ lang, dir: want, direction: want, guessed: null, tofu: [] });
      if (text === DRIFTED) {
        expect(response).toMatchObject({ lang: 'en', guessed: 'true', tofu: [] });
        expect(await page.locator('.lang-guess').textContent()).toContain('language guessed');
        seen.set('drift', true);
      } else {
        expect(response, lang).toEqual({
          lang,
          dir: want,
          direction: want,
          guessed: null,
          tofu: [],
        });
        seen.set(lang, true);
      }
    }
    expect([...seen.keys()].sort()).toEqual([...LANGS, 'drift'].sort());
    expect(errors).toEqual([]);
  });

  it('report: every language named in its own script and direction, every glyph drawn', async () => {
    const scores = path.join(dir, 'scores');
    await scoreToFolder({
      bundle: fx.bundle,
      source: { kind: 'responses', file: fx.responses },
      out: scores,
    });
    await buildReport(scores, path.join(dir, 'report'));
    await page.goto(pathToFileURL(path.join(dir, 'report', 'index.html')).href);
    const cells = page.locator('#tbl-language-net-main td[lang]');
    const seen = new Map<string, Read>();
    for (const cell of await cells.all()) {
      const r = await read(cell);
      seen.set(r.lang!, r);
    }
    expect([...seen.keys()].sort()).toEqual([...LANGS].sort());
    for (const lang of LANGS) {
      const want = DIR[lang] ?? 'ltr';
      expect(seen.get(lang), lang).toEqual({
        lang,
        dir: want,
        direction: want,
        guessed: null,
        tofu: [],
      });
    }
    expect(await page.locator('#tbl-language-net-main td[lang="ug"]').first().textContent()).toBe(
      'ئۇيغۇرچە',
    );
    expect(await page.locator('#tbl-language-net-main').textContent()).toContain('Uyghur (ug)');
    expect(errors).toEqual([]);
  });
});
