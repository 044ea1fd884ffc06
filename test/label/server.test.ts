import { runCli } from '../helpers/cli.js';
/** The rater server over HTTP (no browser): guards, saving, resume, one server per rater file, export. */
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLabels, LABEL_COLUMNS } from '../../src/label/export.js';
import { makeLabelSample } from '../../src/label/make-sample.js';
import type { LabelSample } from '../../src/label/sample-schema.js';
import { serveLabels, type LabelServer } from '../../src/label/serve.js';
import { LabelStore } from '../../src/label/store.js';
import { tempDir } from '../helpers/tmp.js';
import { syntheticJudges, writeLabelSample } from './fixture.js';

interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request, so that the Host header and the path are sent exactly as given. */
function raw(
  port: number,
  p: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: p,
        method: options.method ?? 'GET',
        headers: { Host: `127.0.0.1:${port}`, ...options.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

let dir: string;
let sampleFile: string;
let sample: LabelSample;
let server: LabelServer;
const TOKEN = 'a'.repeat(48);
const auth = (port: number) => ({ Cookie: `stimkit_token_${port}=${TOKEN}` });
const post = (
  port: number,
  body: unknown,
  headers: Record<string, string> = { 'X-Stimkit-Token': TOKEN },
) =>
  raw(port, '/api/answer', {
    method: 'POST',
    headers: { ...auth(port), 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  dir = await tempDir('stimkit-label-server-');
  ({ sampleFile, sample } = await writeLabelSample(dir, 12, 5));
  server = await serveLabels({
    sample: sampleFile,
    rater: 'alice',
    lang: 'en',
    port: 0,
    token: TOKEN,
  });
});
afterAll(async () => server?.close());

describe('label serve: guards', () => {
  it('requires the token, then sets a cookie and drops the token from the address', async () => {
    const port = server.running.port;
    expect((await raw(port, '/')).status).toBe(403);
    expect((await raw(port, `/?token=${'b'.repeat(48)}`)).status).toBe(403);
    const first = await raw(port, `/item/2?token=${TOKEN}`);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/item/2');
    expect(String(first.headers['set-cookie'])).toContain(`stimkit_token_${port}=${TOKEN}`);
    expect(String(first.headers['set-cookie'])).toContain('SameSite=Strict');
    expect((await raw(port, '/item/2', { headers: auth(port) })).status).toBe(200);
  });

  it('refuses a foreign Host header (DNS rebinding) even with the token', async () => {
    const port = server.running.port;
    const r = await raw(port, `/item/1?token=${TOKEN}`, {
      headers: { Host: `evil.example:${port}` },
    });
    expect(r.status).toBe(403);
    expect(r.body).toContain('Host');
    expect(
      (await raw(port, '/item/1', { headers: { ...auth(port), Host: `localhost:${port}` } }))
        .status,
    ).toBe(200);
    // Without --host, an IP address of this machine's network interfaces is refused too.
    expect(
      (await raw(port, '/item/1', { headers: { ...auth(port), Host: `192.168.1.20:${port}` } }))
        .status,
    ).toBe(403);
  });

  it('serves no file outside the sample: traversal and unknown digests are 404', async () => {
    const port = server.running.port;
    for (const p of [
      '/img/../../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/img/..%2f..%2fbundle.json',
      `/img/${'0'.repeat(64)}`,
      '/data/trials.jsonl',
      '/sample.json',
    ]) {
      const r = await raw(port, p, { headers: auth(port) });
      expect(r.status, p).toBe(404);
      expect(r.body).not.toContain('root:');
    }
    const img = sample.items.find((i) => i.images.length)!.images[0]!;
    const ok = await raw(port, `/img/${img}`, { headers: auth(port) });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('image/png');
  });

  it('refuses writes without the X-Stimkit-Token header (no cross-site posts)', async () => {
    const port = server.running.port;
    const r = await post(port, { item: sample.items[0]!.id, field: 'd1', value: 'true' }, {});
    expect(r.status).toBe(403);
    expect(server.store.get(sample.items[0]!.id).d1).toBeNull();
  });
});

describe('label serve: Content-Security-Policy, files, preferences', () => {
  it('sends a CSP without unsafe-inline on every reply, and serves its script, style and icon as files', async () => {
    const port = server.running.port;
    const files = {
      '/item/1': 'text/html',
      '/guide': 'text/html',
      '/static/label.js': 'text/javascript',
      '/static/app.css': 'text/css',
      '/favicon.svg': 'image/svg+xml',
    };
    for (const [p, type] of Object.entries(files)) {
      const r = await raw(port, p, { headers: auth(port) });
      expect(r.status, p).toBe(200);
      expect(String(r.headers['content-type']), p).toContain(type);
      const csp = String(r.headers['content-security-policy']);
      expect(csp, p).toContain("script-src 'self'");
      expect(csp, p).toContain("style-src 'self'");
      expect(csp, p).not.toContain('unsafe-inline');
      expect(csp, p).not.toContain('unsafe-eval');
    }
    const page = (await raw(port, '/item/1', { headers: auth(port) })).body;
    expect(page).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    expect(page).toContain('<script src="/static/label.js"></script>');
    expect((await raw(port, '/static/nope.js', { headers: auth(port) })).status).toBe(404);
    expect((await raw(port, '/favicon.svg')).status).toBe(403); // the token guards files too
  });

  it('keeps the interface language and the shortcut switch in the rater file', async () => {
    const r = await serveLabels({
      sample: sampleFile,
      rater: 'prefs',
      port: 0,
      token: TOKEN,
      labels: path.join(dir, 'elsewhere', 'prefs.sqlite'),
    });
    try {
      const port = r.running.port;
      const prefs = (body: unknown, headers = { 'X-Stimkit-Token': TOKEN }) =>
        raw(port, '/api/prefs', {
          method: 'POST',
          headers: { ...auth(port), 'Content-Type': 'application/json', ...headers },
          body: JSON.stringify(body),
        });
      const page = () => raw(port, '/item/1', { headers: auth(port) }).then((x) => x.body);
      expect(await page()).toContain('<html lang="zh-Hans">'); // the default
      expect((await prefs({ lang: 'en' })).status).toBe(200);
      expect(await page()).toContain('<html lang="en">');
      expect(await page()).toContain('"shortcuts":true');
      expect((await prefs({ shortcuts: false })).status).toBe(200);
      expect(await page()).toContain('"shortcuts":false');
      expect(await page()).toMatch(/class="keys-toggle"> /); // unchecked
      for (const bad of [{ lang: 'fr' }, { shortcuts: 'no' }, { theme: 'dark' }, {}, [], null])
        expect((await prefs(bad)).status, JSON.stringify(bad)).toBe(400);
      expect((await prefs({ lang: 'zh' }, { 'X-Stimkit-Token': 'x' })).status).toBe(403);
      expect(LabelStore.peekMeta(r.store.file)).toMatchObject({ lang: 'en', shortcuts: 'off' });
    } finally {
      await r.close();
    }
  });
});

describe('label serve: answers', () => {
  it('saves each answer at once and validates fields and values', async () => {
    const port = server.running.port;
    const id = sample.items[0]!.id;
    const r = await post(port, { item: id, field: 'd1', value: 'false' });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).answers.d1).toBe('false');
    // Committed: a second connection to the file sees it.
    const other = LabelStore.open(server.store.file, {
      sample_sha256: server.opened.sha256,
      bundle_digest: server.opened.bundle.digest,
      rater: 'alice',
      mode: 'label',
    });
    expect(other.get(id).d1).toBe('false');
    other.close();
    expect((await post(port, { item: id, field: 'd2', value: 'maybe' })).status).toBe(400);
    expect((await post(port, { item: id, field: 'd1', value: 'na' })).status).toBe(400);
    expect((await post(port, { item: id, field: 'rater', value: 'bob' })).status).toBe(400);
    expect(
      (await post(port, { item: 'i_0000000000000000', field: 'd1', value: 'true' })).status,
    ).toBe(400);
  });

  it('asks DT only while D4 is TRUE, and counts an item complete when D1–D5 are answered', async () => {
    const port = server.running.port;
    const id = sample.items[1]!.id;
    for (const [field, value] of [
      ['d1', 'false'],
      ['d2', 'true'],
      ['d3', 'na'],
      ['d4', 'true'],
      ['dt2', true],
      ['d5', 'true'],
      ['note', 'note 界限-7'],
    ] as const) {
      expect((await post(port, { item: id, field, value })).status).toBe(200);
    }
    let a = server.store.get(id);
    expect([a.d4, a.dt1, a.dt2, a.note]).toEqual(['true', null, true, 'note 界限-7']);
    const last = JSON.parse((await post(port, { item: id, field: 'd4', value: 'false' })).body);
    expect(last.complete).toBe(true);
    a = server.store.get(id);
    expect([a.d4, a.dt2]).toEqual(['false', null]);
    // a strategy while D4 is not TRUE is refused, not dropped with a 200 the page would show as saved
    const late = await post(port, { item: id, field: 'dt1', value: true });
    expect(late.status).toBe(409);
    expect(late.body).toContain('DT1 is asked only when D4 is TRUE, and D4 of item');
    expect(server.store.get(id).dt1).toBeNull();
  });

  it('refuses a second server on the same rater file', async () => {
    await expect(
      serveLabels({ sample: sampleFile, rater: 'alice', lang: 'en', port: 0 }),
    ).rejects.toMatchObject({ code: 'E_LABEL_STORE_BUSY' });
    // Another rater is fine.
    const bob = await serveLabels({
      sample: sampleFile,
      rater: 'bob',
      lang: 'zh',
      port: 0,
      token: TOKEN,
    });
    const page = await raw(bob.running.port, '/item/1', { headers: auth(bob.running.port) });
    expect(page.body).toContain('明确拒答');
    // Blind: bob's screen shows nothing of alice's answers.
    const alicesItem = sample.items.findIndex((i) => i.id === sample.items[1]!.id) + 1;
    const bobsView = await raw(bob.running.port, `/item/${alicesItem}`, {
      headers: auth(bob.running.port),
    });
    expect(bobsView.body).toMatch(/<input type="radio" name="d1" value="true">/);
    expect(bobsView.body).not.toMatch(/name="(d\d|dt\d)"[^>]* checked>/);
    expect(bobsView.body).not.toContain('界限-7');
    await bob.close();
  });

  it('says so when the port is taken, and refuses a rater file of another sample', async () => {
    await expect(
      serveLabels({ sample: sampleFile, rater: 'carol', lang: 'en', port: server.running.port }),
    ).rejects.toMatchObject({ code: 'E_SERVE_PORT' });
    const other = path.join(dir, 'other.json');
    await makeLabelSample({
      bundle: server.opened.bundle.dir,
      responses: path.join(dir, 'responses.jsonl'),
      out: other,
      n: 12,
      seed: 6,
    });
    expect(existsSync(path.join(path.dirname(server.store.file), 'carol.sqlite'))).toBe(false);
    const err = await serveLabels({
      sample: other,
      rater: 'bob',
      lang: 'en',
      port: 0,
      labels: path.join(path.dirname(server.store.file), 'bob.sqlite'),
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_LABEL_STORE_MISMATCH' });
    await expect(
      serveLabels({ sample: sampleFile, rater: '../x', lang: 'en', port: 0 }),
    ).rejects.toMatchObject({ code: 'E_LABEL_RATER' });
  });

  it('keeps the session token across restarts, so an open page keeps working', async () => {
    const first = await serveLabels({ sample: sampleFile, rater: 'frank', lang: 'en', port: 0 });
    const { port, token } = first.running;
    await first.close();
    const again = await serveLabels({ sample: sampleFile, rater: 'frank', lang: 'en', port });
    try {
      expect(again.running.token).toBe(token);
      const r = await raw(port, '/api/answer', {
        method: 'POST',
        headers: {
          Cookie: `stimkit_token_${port}=${token}`,
          'X-Stimkit-Token': token,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ item: sample.items[0]!.id, field: 'd1', value: 'true' }),
      });
      expect(r.status).toBe(200);
    } finally {
      await again.close();
    }
  });

  it('has a coding guide with the questions and the D4 boundary cases', async () => {
    const port = server.running.port;
    const guide = await raw(port, '/guide', { headers: auth(port) });
    expect(guide.status).toBe(200);
    for (const text of [
      'D1 · Explicit refusal',
      'D5 · Language consistency',
      'vocational training centre',
      'convicted of inciting subversion',
    ])
      expect(guide.body).toContain(text);
  });

  it('resumes where the rater stopped', async () => {
    const port = server.running.port;
    await raw(port, '/item/7', { headers: auth(port) });
    const again = await raw(port, '/', { headers: auth(port) });
    expect(again.headers.location).toBe('/item/7');
  });

  it('exports one CSV row per item × rater with the documented columns', async () => {
    const out = path.join(dir, 'labels.csv');
    const r = await exportLabels({ sample: sampleFile, out });
    expect(r.raters.map((x) => x.rater)).toEqual(['alice', 'bob', 'frank']);
    const rows = parse<Record<string, string>>(await readFile(out, 'utf8'), { columns: true });
    expect(Object.keys(rows[0]!)).toEqual([...LABEL_COLUMNS]);
    expect(rows).toHaveLength(36);
    const done = rows.find((x) => x.rater === 'alice' && x.sample_item === sample.items[1]!.id)!;
    expect(done).toMatchObject({
      d1_refusal: 'false',
      d2_integrity: 'true',
      d3_grounding: 'na',
      d4_state_aligned: 'false',
      dt1_endorsement: '',
      d5_language: 'true',
      note: 'note 界限-7',
      complete: 'true',
      trial_id: sample.items[1]!.trial_id,
      model: sample.items[1]!.model,
      mode: 'label',
    });
    const empty = rows.find((x) => x.rater === 'bob')!;
    expect([empty.d1_refusal, empty.complete, empty.first_saved_at]).toEqual(['', 'false', '']);
  });

  it('exports the wide layout that `stimkit analyze agreement` reads', async () => {
    const out = path.join(dir, 'labels-wide.csv');
    await exportLabels({ sample: sampleFile, out, wide: true });
    const rows = parse<Record<string, string>>(await readFile(out, 'utf8'), { columns: true });
    expect(rows).toHaveLength(12);
    expect(Object.keys(rows[0]!).slice(0, 8)).toEqual([
      'sample_item',
      'trial_id',
      'model',
      'paradigm',
      'lang',
      'd1_refusal.alice',
      'd1_refusal.bob',
      'd1_refusal.frank',
    ]);
    const item1 = rows.find((x) => x.sample_item === sample.items[1]!.id)!;
    expect(item1).toMatchObject({
      'd1_refusal.alice': 'false',
      'd3_grounding.alice': 'na',
      'd1_refusal.bob': '',
    });
    const r = await runCli([
      'analyze',
      'agreement',
      out,
      '--raters',
      'd1_refusal.alice,d1_refusal.frank',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const both = rows.filter((x) => x['d1_refusal.alice'] !== '' && x['d1_refusal.frank'] !== '');
    expect(both.length).toBeGreaterThan(0);
    const agree =
      both.filter((x) => x['d1_refusal.alice'] === x['d1_refusal.frank']).length / both.length;
    expect(r.json().pairs[0]).toMatchObject({
      raters: ['d1_refusal.alice', 'd1_refusal.frank'],
      n: both.length,
      rawAgreement: agree,
    });
  });
});

describe('label serve --judges (review mode)', () => {
  it('shows only the items the judges disagree on, with their labels, and stores adjudications apart', async () => {
    const judges = path.join(dir, 'judges.jsonl');
    await writeFile(judges, syntheticJudges(sample.items));
    const review = await serveLabels({
      sample: sampleFile,
      rater: 'alice',
      lang: 'en',
      port: 0,
      token: TOKEN,
      judges,
    });
    try {
      // Items 0, 3, 6, 9 (D4) and 0, 4, 8 (D2) disagree.
      expect(review.items.map((i) => sample.items.findIndex((s) => s.id === i.id))).toEqual([
        0, 3, 4, 6, 8, 9,
      ]);
      expect(review.store.file).toMatch(/alice\.review\.sqlite$/);
      const page = await raw(review.running.port, '/item/1', {
        headers: auth(review.running.port),
      });
      expect(page.body).toContain('judge-a');
      expect(page.body).toContain('class="disagree"');
      expect(page.body).toContain('Euphemistic wording');
      // The judges' answers read in the interface language.
      expect(page.body).toMatch(/<td class="disagree">(TRUE|FALSE)<\/td>/);
      review.store.setMeta('lang', 'zh');
      const zh = await raw(review.running.port, '/item/1', { headers: auth(review.running.port) });
      expect(zh.body).toMatch(/<td class="disagree">(是|否)<\/td>/);
      expect(zh.body).not.toMatch(/>(true|false|TRUE|FALSE)</);
    } finally {
      await review.close();
    }
  });
});

describe('--host', () => {
  it('accepts IP-literal Host headers but still refuses names other than its own', async () => {
    // Bound to 127.0.0.1 (tests never bind elsewhere) but configured as if --host had been given.
    const s = await serveLabels({
      sample: sampleFile,
      rater: 'erin',
      lang: 'en',
      port: 0,
      host: '127.0.0.1',
      token: TOKEN,
    });
    try {
      const port = s.running.port;
      expect(
        (await raw(port, '/item/1', { headers: { ...auth(port), Host: `192.168.1.20:${port}` } }))
          .status,
      ).toBe(200);
      expect(
        (await raw(port, '/item/1', { headers: { ...auth(port), Host: `[fe80::1]:${port}` } }))
          .status,
      ).toBe(200);
      expect(
        (await raw(port, '/item/1', { headers: { ...auth(port), Host: `rebind.example:${port}` } }))
          .status,
      ).toBe(403);
      expect(
        (await raw(port, '/item/1', { headers: { Host: `192.168.1.20:${port}` } })).status,
      ).toBe(403);
    } finally {
      await s.close();
    }
  });
});
