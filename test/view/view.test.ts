/** `stimkit view`: the read-only browser of a bundle and its scores, over HTTP. */
import { getPage } from '../helpers/http.js';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../../src/label/bundle.js';
import { readScores } from '../../src/view/scores.js';
import { serveView, type ViewServer } from '../../src/view/serve.js';
import { writeLabelFixture, type LabelFixture } from '../label/fixture.js';
import { tempDir } from '../helpers/tmp.js';

const TOKEN = 'c'.repeat(48);
const get = (port: number, p: string, cookie = true) => getPage(port, p, cookie ? TOKEN : null);
const rowsIn = (html: string) =>
  (html.match(/<tr><td data-label="Trial"><a href="\/trial\//g) ?? []).length;

let fx: LabelFixture;
let plain: ViewServer;
let scored: ViewServer;
let scoresDir: string;
beforeAll(async () => {
  const dir = await tempDir('stimkit-view-');
  fx = await writeLabelFixture(dir);
  scoresDir = path.join(dir, 'scores');
  await mkdir(scoresDir);
  const lines = (await readFile(fx.responses, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  // scores.jsonl: D4 true for model-b only, nested judge fields; plus a CSV with one more label and a junk line.
  await writeFile(
    path.join(scoresDir, 'scores.jsonl'),
    `${lines.map((r) => JSON.stringify({ trial_id: r.trial_id, model: r.model, judge: { d4: r.model === 'model-b', d1: false } })).join('\n')}\nnot json\n{"no":"ids"}\n`,
  );
  await writeFile(
    path.join(scoresDir, 'responses.jsonl'),
    `${lines.map((r) => JSON.stringify(r)).join('\n')}\n`,
  );
  plain = await serveView({ bundle: fx.bundle, port: 0, token: TOKEN });
  scored = await serveView({ bundle: fx.bundle, scores: scoresDir, port: 0, token: TOKEN });
});
afterAll(async () => {
  await plain?.close();
  await scored?.close();
});

describe('stimkit view', () => {
  it('needs the token and serves only bundle images by digest', async () => {
    const port = plain.running.port;
    expect((await get(port, '/', false)).status).toBe(403);
    expect((await get(port, '/')).status).toBe(200);
    expect((await get(port, '/img/../../data/trials.jsonl')).status).toBe(404);
    expect((await get(port, '/%2e%2e/bundle.json')).status).toBe(404);
    expect((await get(port, `/img/${'f'.repeat(64)}`)).status).toBe(404);
  });

  it('lists the entries and shows a ladder of the seven variants side by side', async () => {
    const port = plain.running.port;
    const bundle = await loadBundle(fx.bundle);
    const home = (await get(port, '/')).body;
    for (const id of bundle.entries.keys()) expect(home).toContain(`/entry/${id}`);
    const entry = (await get(port, '/entry/dscovr-launch')).body;
    expect(entry).toContain('猎鹰9号火箭发射DSCOVR卫星');
    const figures = entry.match(/<figure>/g) ?? [];
    expect(figures).toHaveLength(7);
    for (const code of ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6'])
      expect(entry).toContain(`<strong>${code}</strong>`);
    const img = /\/img\/([0-9a-f]{64})/.exec(entry)![1]!;
    expect((await get(port, `/img/${img}`)).status).toBe(200);
    expect((await get(port, '/ladders')).body.match(/<figure>/g)!.length).toBe(
      bundle.variants.length,
    );
    expect((await get(port, '/entry/nope')).status).toBe(404);
  });

  it('filters trials by paradigm, language and variant', async () => {
    const port = plain.running.port;
    const bundle = await loadBundle(fx.bundle);
    const want = bundle.trials.filter(
      (t) => t.paradigm === 'abstraction' && t.lang === 'zh' && t.variant === 'A3',
    ).length;
    expect(want).toBeGreaterThan(0);
    const page = (await get(port, '/trials?paradigm=abstraction&lang=zh&variant=A3')).body;
    expect(rowsIn(page)).toBe(want);
    expect(page).toContain(`${want} trials`);
    const t = bundle.trials.find((x) => x.paradigm === 'instrument')!;
    const trial = (await get(port, `/trial/${t.id}`)).body;
    expect(trial).toContain('instrument');
  });

  it('with --scores: responses with their labels, filterable by model and label', async () => {
    const port = scored.running.port;
    expect(scored.data.scores).toHaveLength(721); // 720 responses and one failed request
    const byModel = (await get(port, '/trials?model=model-a&paradigm=describe')).body;
    expect(byModel).toContain('24 responses');
    const labelled = (await get(port, '/trials?label=judge.d4')).body;
    expect(labelled).toContain('240 responses');
    expect(labelled).not.toContain('<td data-label="Model"><bdi>model-a</bdi>');
    expect(labelled).toContain('<td data-label="Model"><bdi>model-b</bdi>');
    // Markup in responses is shown as text.
    const withMarkup = scored.data.scores!.find((s) => s.response?.includes('<script>'))!;
    const trial = (await get(port, `/trial/${withMarkup.trial_id}`)).body;
    expect(trial).toContain('&lt;script&gt;alert');
    expect(trial).not.toContain('<script>alert');
    expect(trial).toContain('<dt><code><bdi>judge.d4</bdi></code></dt>');
  });

  it('reads scores loosely: rows need only trial_id and model; CSV works too', async () => {
    const dir = await tempDir('stimkit-view-scores-');
    await writeFile(
      path.join(dir, 'trials.csv'),
      'trial_id,model,d4_state_aligned,notes\nt_000000000000000000000001,m,true,"a, b"\n,m,false,x\n',
    );
    const rows = await readScores(dir);
    expect(rows).toEqual([
      {
        trial_id: 't_000000000000000000000001',
        model: 'm',
        response: null,
        labels: { d4_state_aligned: 'true', notes: 'a, b' },
        source: 'trials.csv',
      },
    ]);
    await expect(readScores(path.join(dir, 'missing'))).rejects.toMatchObject({
      code: 'E_VIEW_SCORES',
    });
  });
});
