/**
 * `stimkit view --scores <folder>`: the scores folder of a real simulated run (`stimkit run` then
 * `stimkit score --ledger`) shows every scored response with its text, read from the ledger that
 * score.json records, and its labels joined by trial × model; `--ledger` names a moved ledger; the
 * startup line counts the texts there; a ledger changed after scoring is warned of.
 * Checked over HTTP.
 */
import { getPage } from '../helpers/http.js';
import { copyFile, readFile, rename, writeFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { sha256 } from '../../src/core/fsio.js';
import { escapeHtml as esc } from '../../src/core/html.js';
import { openLedger } from '../../src/ledger/index.js';
import { SIM_PRESETS } from '../../src/sim/index.js';
import { serveView, type ViewServer } from '../../src/view/serve.js';
import { startupLine } from '../../src/view/shell.js';
import { instrumentBundle, type InstrumentFixture } from '../score/fixture.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 180 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(10) });

const TOKEN = 'd'.repeat(48);
const get = (port: number, p: string) => getPage(port, p, TOKEN);

let dir: string;
let fx: InstrumentFixture;
let ledger: string;
let scores: string;
let server: ViewServer | undefined;
const texts = new Map<string, string | null>();

beforeAll(async () => {
  dir = await tempDir('stimkit-view-scores-');
  fx = await instrumentBundle(dir, { iterations: 1, ptIterations: 0 });
  const presets = SIM_PRESETS.filter(
    (p) => p.name === 'sim-acquiescer' || p.name === 'sim-convinced',
  );
  await writeFile(
    path.join(dir, 'models.yaml'),
    stringify({
      format: 'stimkit.models',
      version: 1,
      models: presets.map((p) => ({ name: p.name, provider: 'sim', origin: 'CN', sim: p.sim })),
    }),
  );
  ledger = path.join(dir, 'run.ledger.sqlite');
  const r = await runCli([
    'run',
    fx.bundle,
    '--models',
    path.join(dir, 'models.yaml'),
    '--ledger',
    ledger,
    '--json',
  ]);
  expect(r.code, r.stderr).toBe(0);
  scores = path.join(dir, 'scores');
  const s = await runCli([
    'score',
    '--bundle',
    fx.bundle,
    '--ledger',
    ledger,
    '--out',
    scores,
    '--json',
  ]);
  expect(s.code, s.stderr).toBe(0);
  const reader = openLedger(ledger);
  for (const x of reader.results()) texts.set(`${x.trial_id}|${x.model}`, x.text);
  reader.close();
});
afterAll(async () => {
  await server?.close();
});

/** Every trial page shows the text of each of its responses (or says there is none). */
async function expectTextsOnPages(view: ViewServer): Promise<void> {
  const byTrial = new Map<string, Array<{ model: string; text: string | null }>>();
  for (const [k, text] of texts) {
    const [trial, model] = k.split('|') as [string, string];
    byTrial.set(trial, [...(byTrial.get(trial) ?? []), { model, text }]);
  }
  for (const [trial, rows] of byTrial) {
    const page = await get(view.running.port, `/trial/${trial}`);
    expect(page.status).toBe(200);
    for (const { text } of rows) if (text !== null) expect(page.body, trial).toContain(esc(text));
  }
}

describe('stimkit view --scores <scores folder>', () => {
  it('shows every scored response with its text from the ledger and its labels', async () => {
    server = await serveView({ bundle: fx.bundle, scores, port: 0, token: TOKEN });
    const rows = server.data.scores!;
    expect(rows.length).toBe(texts.size);
    expect(server.data.responses).toMatchObject({ kind: 'ledger', file: ledger });
    for (const row of rows) {
      expect(row.labels.score).toMatch(/^-?\d/); // from scores.jsonl and the CSV tables
      expect(row.labels['parse.label'] ?? row.labels.reason).toBeDefined();
    }
    // nothing is read before a page shows it: the texts stay in the ledger
    expect(rows.every((r) => r.response === null)).toBe(true);
    await expectTextsOnPages(server);
    const withText = [...texts].filter(([, t]) => t !== null);
    expect(withText.length).toBeGreaterThan(rows.length / 2);
    const one = rows.find((r) => texts.get(`${r.trial_id}|${r.model}`) !== null)!;
    const page = await get(server.running.port, `/trial/${one.trial_id}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(esc(one.response!));
    expect(page.body).toContain(
      `<dt><code><bdi>score</bdi></code></dt><dd><bdi>${one.labels.score}</bdi></dd>`,
    );
    expect(page.body).not.toContain('no response text in the scores');
    // The route that served each response (a simulated respondent's is `sim`), row and detail.
    expect(one.labels.route).toBe('sim');
    expect(page.body).toContain('<span class="meta"><bdi>via sim</bdi></span>');
    const list = await get(server.running.port, `/trials?model=${one.model}`);
    expect(list.status).toBe(200);
    expect(list.body).toContain(one.trial_id);
    expect(list.body).toContain('<br><span class="meta"><bdi>via sim</bdi></span>');
    await server.close();
    server = undefined;
  });

  it('reads the texts of a responses file where each line starts, only for the pages shown', async () => {
    const file = path.join(dir, 'responses.jsonl');
    const lines = [...texts].map(([k, response]) => {
      const [trial_id, model] = k.split('|');
      return JSON.stringify({ trial_id, model, response });
    });
    // a byte order mark and CRLF line ends, as an editor on Windows may leave them
    await writeFile(file, `\uFEFF${lines.join('\r\n')}\r\n`);
    const out = path.join(dir, 'scores-jsonl');
    const s = await runCli(['score', '--bundle', fx.bundle, '--responses', file, '--out', out]);
    expect(s.code, s.stderr).toBe(0);
    server = await serveView({ bundle: fx.bundle, scores: out, port: 0, token: TOKEN });
    expect(server.data.responses).toMatchObject({ kind: 'responses', file });
    expect(server.data.scores!.every((r) => r.response === null)).toBe(true);
    await expectTextsOnPages(server);
    await server.close();
    server = undefined;
  });

  it('says at startup how many responses have a text (none is read yet), and warns when the ledger changed after scoring', async () => {
    server = await serveView({ bundle: fx.bundle, scores, port: 0, token: TOKEN });
    const withText = [...texts].filter(([, t]) => t !== null).length;
    // The old line counted texts already read: 0 before any page was shown.
    expect(server.data.scores!.filter((r) => r.response !== null).length).toBe(0);
    expect(startupLine(server.data)).toContain(
      `${texts.size} responses (${withText} with text in ${ledger}, read as pages show them)`,
    );
    expect(startupLine(server.data)).not.toContain('warning');
    expect(server.data.responses?.changed).toBeNull();
    await server.close();
    // One response edited in a copy of the ledger: its bytes are no longer those score.json recorded.
    const edited = path.join(dir, 'edited.sqlite');
    await copyFile(ledger, edited);
    const [key] = [...texts].find(([, t]) => t !== null)!;
    const [trial, model] = key.split('|') as [string, string];
    const db = new Database(edited);
    db.prepare('UPDATE results SET response_text = ? WHERE trial_id = ? AND model = ?').run(
      'An edited response.',
      trial,
      model,
    );
    db.close();
    server = await serveView({ bundle: fx.bundle, scores, ledger: edited, port: 0, token: TOKEN });
    const line = startupLine(server.data);
    expect(line).toContain('warning: the run ledger has changed since these scores were made');
    expect(line).toContain(server.data.responses!.changed!.recorded.slice(0, 12));
    const page = await get(server.running.port, `/trial/${trial}`);
    expect(page.body).toContain('CHANGED SINCE SCORING');
    expect(page.body).toContain('An edited response.');
    // The warning is the edited response's own, not the file's: one per edited response (its
    // sha256 against the one scores.jsonl recorded), none on the pages of unedited ones.
    expect(page.body.split('CHANGED SINCE SCORING').length - 1).toBe(1);
    expect(page.body).toContain(
      `sha256 ${sha256(texts.get(key)!).slice(0, 12)}… scored, sha256 ${sha256('An edited response.').slice(0, 12)}… now`,
    );
    expect(line).toContain('one whose text differs is marked on its own');
    const other = [...texts.keys()].find((k) => !k.startsWith(`${trial}|`))!.split('|')[0]!;
    const untouched = await get(server.running.port, `/trial/${other}`);
    expect(untouched.status).toBe(200);
    expect(untouched.body).not.toContain('CHANGED SINCE SCORING');
    const list = await get(server.running.port, `/trials?model=${encodeURIComponent(model)}`);
    expect(list.body.split('changed-response').length - 1).toBe(1);
    await server.close();
    server = undefined;
  });

  it('records in scores.jsonl the sha256 of each response text as the ledger holds it', async () => {
    const lines = (await readFile(path.join(scores, 'scores.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.length).toBe(texts.size);
    for (const l of lines) {
      const r = JSON.parse(l) as { trial: string; model: string; response_sha256: unknown };
      const text = texts.get(`${r.trial}|${r.model}`);
      expect(r.response_sha256).toBe(text === null || text === undefined ? null : sha256(text));
    }
    expect(lines.some((l) => JSON.parse(l).response_sha256 === null)).toBe(
      [...texts.values()].some((t) => t === null),
    );
  });

  it('names a moved ledger, and takes it with --ledger', async () => {
    const moved = path.join(dir, 'moved.sqlite');
    await rename(ledger, moved);
    const err = await serveView({ bundle: fx.bundle, scores, port: 0, token: TOKEN }).catch(
      (e: { code?: string }) => e,
    );
    expect((err as { code?: string }).code).toBe('E_VIEW_RESPONSES');
    server = await serveView({ bundle: fx.bundle, scores, ledger: moved, port: 0, token: TOKEN });
    expect(server.data.responses).toMatchObject({ kind: 'ledger', file: moved });
    await expectTextsOnPages(server);
  });

  it('refuses --ledger without the run the scores were made from, naming both runs', async () => {
    const moved = path.join(dir, 'moved.sqlite');
    const other = path.join(dir, 'other.sqlite');
    await copyFile(moved, other);
    const reader = openLedger(other);
    const run = reader.run().label;
    reader.close();
    const db = new Database(other);
    db.prepare('UPDATE runs SET label = ?').run('another-run');
    db.close();
    const err = await serveView({
      bundle: fx.bundle,
      scores,
      ledger: other,
      port: 0,
      token: TOKEN,
    }).catch((e: { code?: string; message?: string }) => e);
    expect((err as { code?: string }).code).toBe('E_VIEW_RESPONSES');
    const message = (err as { message: string }).message;
    expect(message).toContain(other);
    expect(message).toContain(`no run "${run}"`);
    expect(message).toContain('got runs "another-run"');
    expect(message).toContain('Fix: give the ledger');
  });
});
