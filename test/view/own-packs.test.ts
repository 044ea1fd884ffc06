/**
 * The pages take `lang` and `dir` from the study's own language packs sealed in the bundle, before
 * the shipped ones: the demo study with its own Chinese pack, changed to say right to left (an
 * override no real pack makes, so that only the sealed pack can explain it). The viewer, the rater
 * app and the review page mark the Chinese texts `dir="rtl"`; the English ones stay `ltr`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../../src/label/bundle.js';
import { serveLabels, type LabelServer } from '../../src/label/serve.js';
import { reviewHtml } from '../../src/review/html.js';
import { loadReviewSource } from '../../src/review/source.js';
import { serveView, type ViewServer } from '../../src/view/serve.js';
import { writeLabelSample } from '../label/fixture.js';
import { ROOT } from '../helpers/cli.js';
import { getPage } from '../helpers/http.js';
import { heavyLimit } from '../helpers/limits.js';
import { tempDir } from '../helpers/tmp.js';

const TOKEN = 'd'.repeat(48);
const M = path.join(ROOT, 'manifests');

/** The demo study with absolute paths and its own zh pack (`zh.yaml`, right to left). */
async function ownStudy(dir: string): Promise<string> {
  const zh = await readFile(path.join(M, 'languages', 'zh-Hans.yaml'), 'utf8');
  expect(zh).toMatch(/^direction: ltr$/m);
  await writeFile(path.join(dir, 'zh.yaml'), zh.replace(/^direction: ltr$/m, 'direction: rtl'));
  const s = parse(await readFile(path.join(M, 'demo.study.yaml'), 'utf8'));
  s.corpus.entries = path.join(M, s.corpus.entries);
  s.variants.lock = path.join(M, s.variants.lock);
  s.prompts = path.join(M, s.prompts);
  s.instrument.topics = path.join(M, s.instrument.topics);
  s.instrument.wrappers = path.join(M, s.instrument.wrappers);
  s.language_packs = ['zh.yaml'];
  const file = path.join(dir, 'own.study.yaml');
  await writeFile(file, stringify(s));
  return file;
}

let bundle: string;
let sample: Awaited<ReturnType<typeof writeLabelSample>>;
let view: ViewServer;
let label: LabelServer;
beforeAll(async () => {
  const dir = await tempDir('stimkit-own-packs-pages-');
  sample = await writeLabelSample(dir, 12, 5, await ownStudy(dir));
  bundle = sample.bundle;
  view = await serveView({ bundle, port: 0, token: TOKEN });
  label = await serveLabels({
    sample: sample.sampleFile,
    rater: 'alice',
    lang: 'en',
    port: 0,
    token: TOKEN,
  });
}, heavyLimit(7));
afterAll(async () => {
  await view?.close();
  await label?.close();
});

const get = async (port: number, p: string) => {
  const r = await getPage(port, p, TOKEN);
  expect(r.status).toBe(200);
  return r.body;
};

describe("the pages read the bundle's own language packs", () => {
  it('view: a Chinese prompt and title are right to left, an English one left to right', async () => {
    const { trials } = await loadBundle(bundle);
    const zh = trials.find((t) => t.lang === 'zh' && t.entry !== null)!;
    const en = trials.find((t) => t.lang === 'en' && t.entry !== null)!;
    const port = view.running.port;
    expect(await get(port, `/trial/${zh.id}`)).toContain(
      '<pre class="verbatim" lang="zh" dir="rtl">',
    );
    expect(await get(port, `/trial/${en.id}`)).toContain(
      '<pre class="verbatim" lang="en" dir="ltr">',
    );
    const entry = await get(port, `/entry/${encodeURIComponent(zh.entry!)}`);
    expect(entry).toContain('<span lang="zh" dir="rtl">');
    expect(await get(port, '/trials')).toMatch(/<pre class="verbatim" lang="zh" dir="rtl">/);
  });

  it('rater app: the prompt and response of a Chinese item are right to left', async () => {
    const i = label.items.findIndex((it) => it.lang === 'zh');
    expect(i).toBeGreaterThanOrEqual(0);
    const page = await get(label.running.port, `/item/${i + 1}`);
    expect(page).toContain('lang="zh" dir="rtl" id="prompt"');
    expect(page).toMatch(
      /<pre class="verbatim" lang="zh" dir="rtl"(?: data-lang-guessed="true")? id="response"/,
    );
  });

  it('review: the Chinese titles and facts of the bundle are right to left', async () => {
    const data = await loadReviewSource(bundle);
    const html = reviewHtml(
      data,
      data.entries.map(() => ({ thumb: null, ladder: [] })),
    );
    expect(html).toContain('<td lang="zh" dir="rtl">');
    expect(html).toContain('<td lang="en" dir="ltr">');
    expect(html).not.toContain('<td lang="zh" dir="ltr">');
  });
});
