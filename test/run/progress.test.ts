// Progress without a terminal: a plain line per model at each interval (done, failed, in flight,
// rate, ETA, tokens).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStudy } from '../../src/run/run.js';
import { progressLine } from '../../src/run/progress.js';
import { newStats } from '../../src/run/model-stats.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from './fixture.js';
import { writeModels } from './helpers.js';
import { startServer, type TestServer } from './server.js';

let dir: string;
let server: TestServer;
beforeAll(async () => {
  dir = await tempDir('stimkit-run-progress-');
  await writeRunBag(path.join(dir, 'bag'), 8);
  server = await startServer(() => ({ kind: 'ok' }), 60);
});
afterAll(() => server.close());

describe('progress', () => {
  it('prints plain periodic lines per model when not on a terminal', async () => {
    const models = await writeModels(dir, [
      { name: 'a', endpoint: server.url, concurrency: 1 },
      { name: 'b', endpoint: server.url, concurrency: 1 },
    ]);
    const lines: string[] = [];
    await runStudy({
      bundle: path.join(dir, 'bag'),
      modelsFile: models,
      ledger: path.join(dir, 'l.sqlite'),
      progress: { write: (l) => lines.push(l), tty: false, intervalMs: 100 },
    });
    expect(
      lines.some((l) =>
        /^stimkit run: a: \d+\/10 \(done \d+, failed 0, in flight [01], [\d.]+\/s, ETA/.test(l),
      ),
    ).toBe(true);
    expect(lines.some((l) => l.startsWith('stimkit run: b: '))).toBe(true);
  });

  it('a line says done, failed, in flight, rate, ETA and tokens', () => {
    const s = newStats('m', 'openai', 10, 0, 10);
    s.done = 4;
    s.failed = { http_404: 1 };
    s.inFlight = 2;
    s.tokens = { prompt: 40, completion: 20 };
    expect(progressLine(s)).toMatch(
      /^m: 5\/10 \(done 4, failed 1, in flight 2, [\d.]+\/s, ETA \d+s, 60 tokens\)$/,
    );
  });
});
