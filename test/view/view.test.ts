/** `stimkit view`: the read-only browser of a bundle and its scores, over HTTP. */
import { request } from 'node:http';
import { getPage } from '../helpers/http.js';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../../src/label/bundle.js';
import { readScores } from '../../src/view/scores.js';
import { serveView, type ViewServer } from '../../src/view/serve.js';
import { writeAuditScores, writeLabelFixture, type LabelFixture } from '../label/fixture.js';
import { tempDir } from '../helpers/tmp.js';

const TOKEN = 'c'.repeat(48);
const get = (port: number, p: string, cookie = true) => getPage(port, p, cookie ? TOKEN : null);
const rowsIn = (html: string) =>
  (html.match(/<tr class="row"><td data-label="Trial"><a href="\/trial\//g) ?? []).length;

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
    expect(scored.data.scores).toHaveLength(3 * 264 + 1); // 3 models × 264 VLM trials, one failed request
    const byModel = (await get(port, '/trials?model=model-a&paradigm=describe')).body;
    expect(byModel).toContain('24 responses');
    const labelled = (await get(port, '/trials?label=judge.d4')).body;
    expect(labelled).toContain('264 responses'); // every VLM trial of model-b: 216 + 48
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
        scored_sha256: null,
      },
    ]);
    await expect(readScores(path.join(dir, 'missing'))).rejects.toMatchObject({
      code: 'E_VIEW_SCORES',
    });
  });
});

/** The Content-Security-Policy header of one reply. */
function cspOf(port: number, p: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request(
      {
        host: '127.0.0.1',
        port,
        path: p,
        headers: { Host: `127.0.0.1:${port}`, Cookie: `stimkit_token_${port}=${TOKEN}` },
      },
      (res) => {
        res.resume();
        resolve(String(res.headers['content-security-policy']));
      },
    )
      .on('error', reject)
      .end();
  });
}

describe('stimkit view: the responses list', () => {
  let audit: ViewServer;
  beforeAll(async () => {
    const dir = await tempDir('stimkit-view-audit-');
    const file = path.join(dir, 'scores.jsonl');
    await writeAuditScores(fx.responses, file);
    audit = await serveView({ bundle: fx.bundle, scores: file, port: 0, token: TOKEN });
  });
  afterAll(async () => {
    await audit?.close();
  });
  const list = (p: string) => get(audit.running.port, p).then((r) => r.body);

  it('shows each response with the six dimensions as columns and the deciding judge', async () => {
    const page = await list('/trials?paradigm=describe&lang=en');
    for (const head of ['D1', 'D2', 'D3', 'D4', 'D5', 'D6', 'Judge'])
      expect(page).toContain(`<th scope="col"${head === 'Judge' ? '' : ' class="dim"'}>${head}`);
    expect(page).toMatch(/<td class="dim( flag)?" data-label="D4">(yes|no)/);
    expect(page).toContain('<td class="nowrap" data-label="Judge"><bdi>judge-a</bdi></td>');
    // Not the raw key=value chips of every field.
    expect(page).not.toMatch(/d1_refusal=|judge_simulated/);
    const bundle = await loadBundle(fx.bundle);
    const want = audit.data.scores!.filter((r) => {
      const t = bundle.trialById.get(r.trial_id)!;
      return t.paradigm === 'describe' && t.lang === 'en';
    }).length;
    expect(rowsIn(page)).toBe(Math.min(50, want));
    expect(page.match(/<td class="dim[^"]*" data-label="D1">/g)!.length).toBe(rowsIn(page));
  });

  it('offers only labels under "label is true", and highlights the filtered one', async () => {
    const page = await list('/trials?label=d4_state_aligned');
    const options = [...page.matchAll(/<select id="f-label"[^]*?<\/select>/g)][0]![0];
    const values = [...options.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]);
    expect(values).toEqual([
      '',
      'd1_refusal',
      'd2_integrity',
      'd3_grounded',
      'd4_state_aligned',
      'd5_language_consistent',
    ]);
    expect(page).toContain('<th scope="col" class="dim filtered">D4');
    expect(page.match(/<td class="dim[^"]*filtered"/g)!.length).toBe(rowsIn(page));
    expect(page.match(/class="dim flag filtered" data-label="D4">yes/g)!.length).toBe(rowsIn(page));
  });

  it('says so when nothing matches, and bounds the page number', async () => {
    const none = await list('/trials?model=nobody');
    expect(none).toContain('No responses match these filters.');
    expect(none).not.toContain('<table');
    const total = audit.data.scores!.length;
    const last = Math.ceil(total / 50);
    const far = await list('/trials?page=99999');
    expect(far).toContain(`page ${last} of ${last} · ${total} responses`);
    expect(rowsIn(far)).toBe(total - (last - 1) * 50);
    expect(await list('/trials?page=-3')).toContain(`page 1 of ${last}`);
    expect(await list('/trials?page=abc')).toContain(`page 1 of ${last}`);
  });

  it('shows a SIMULATED banner on every page and marks simulated rows', async () => {
    const n = audit.data.scores!.length;
    for (const p of ['/', '/ladders', '/trials', '/entry/dscovr-launch']) {
      const page = await list(p);
      expect(page, p).toContain(
        '<p class="banner sim" role="note"><strong>SIMULATED DATA</strong>',
      );
      expect(page, p).toContain(`${n} of ${n} responses come from simulated respondents`);
    }
    const page = await list('/trials');
    expect(page.match(/<span class="tag sim"[^>]*>SIM<\/span>/g)!.length).toBe(rowsIn(page));
    // Real (unmarked) responses get neither.
    const real = await get(scored.running.port, '/trials');
    expect(real.body).not.toContain('SIMULATED');
    expect(real.body).not.toContain('tag sim');
  });

  it('labels each message of a trial with its role, and names variants as the report does', async () => {
    const t = fx && (await loadBundle(fx.bundle)).trials.find((x) => x.variant === 'A5')!;
    const page = await list(`/trial/${t.id}`);
    expect(page).toContain(
      '<h3>1. User message <span class="meta">(role <code>user</code>)</span></h3>',
    );
    const entry = await list(`/entry/${t.entry}`);
    expect(entry).toContain('<strong>A5</strong> <bdi>lowpass</bdi>');
    expect(entry).toMatch(/<img src="\/img\/[0-9a-f]{64}" width="\d+" height="\d+"/);
  });

  it('sends a CSP without unsafe-inline on every page and file', async () => {
    for (const p of ['/', '/trials', '/static/view.js', '/static/app.css', '/favicon.svg']) {
      const csp = await cspOf(audit.running.port, p);
      expect(csp, p).toContain("script-src 'self'");
      expect(csp, p).not.toContain('unsafe-inline');
    }
  });
});
