/**
 * `view` and `label serve` under `--json`: one JSON line on stdout as soon as the server listens
 * (URL, port, token), so that a script using `--port 0` can find the server; the summary follows
 * when the server stops. Runs the built binary as a child process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeLabelFixture, type LabelFixture } from '../label/fixture.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

function get(port: number, p: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: p, headers: { Host: `127.0.0.1:${port}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}

/** Start the binary; resolve with the first stdout line (parsed) and the child. */
function start(args: string[]): Promise<{
  child: ChildProcess;
  first: Record<string, any>;
  out: () => string;
  exited: Promise<number | null>;
}> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'stimkit.js'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`no JSON line within 30 s:\n${out}\n${err}`));
    }, 30_000);
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const nl = out.indexOf('\n');
      if (nl >= 0 && timer) {
        clearTimeout(timer);
        resolve({ child, first: JSON.parse(out.slice(0, nl)), out: () => out, exited });
      }
    });
    void exited.then((code) => reject(new Error(`exited ${code} before listening:\n${err}`)));
  });
}

let fx: LabelFixture;
let dir: string;
beforeAll(async () => {
  dir = await tempDir('stimkit-serving-');
  fx = await writeLabelFixture(dir);
});

describe('--json announces the listening server', () => {
  it('view prints url, port and token on one stdout line while it runs', async () => {
    const s = await start(['view', fx.bundle, '--port', '0', '--json']);
    expect(s.first).toMatchObject({
      ok: true,
      event: 'listening',
      command: 'view',
      host: '127.0.0.1',
    });
    expect(s.first.port).toBeGreaterThan(0);
    expect(s.first.url).toBe(`http://127.0.0.1:${s.first.port}/?token=${s.first.token}`);
    expect(await get(s.first.port, '/')).toBe(403);
    expect(await get(s.first.port, `/?token=${s.first.token}`)).toBe(303); // the token sets the cookie, then redirects
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    const rest = s.out().slice(s.out().indexOf('\n') + 1);
    expect(JSON.parse(rest)).toMatchObject({ ok: true, command: 'view', event: 'stopped' });
  });

  it('label serve prints url, port, token, rater and store (sample drawn from run-export-style lines)', async () => {
    // run export's shape: response_text and extra keys; label sample reads it as it is.
    const lines = (await readFile(fx.responses, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const exported = path.join(dir, 'export.jsonl');
    await writeFile(
      exported,
      lines
        .map(
          ({ response, ...r }) =>
            `${JSON.stringify({ ...r, response_text: response, latency_ms: 1.5, outcome: response === null ? 'failed' : 'answer' })}\n`,
        )
        .join(''),
    );
    const sample = path.join(dir, 'sample.json');
    const r = await runCli([
      'label',
      'sample',
      '--bundle',
      fx.bundle,
      '--responses',
      exported,
      '--n',
      '6',
      '--out',
      sample,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().skipped.without_text).toBe(1);

    const s = await start(['label', 'serve', sample, '--rater', 'ana', '--port', '0', '--json']);
    expect(s.first).toMatchObject({
      ok: true,
      event: 'listening',
      command: 'label serve',
      rater: 'ana',
      mode: 'label',
      items: 6,
    });
    expect(s.first.store).toMatch(/ana\.sqlite$/);
    expect(await get(s.first.port, `/?token=${s.first.token}`)).toBe(303); // the token sets the cookie, then redirects
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  });
});
