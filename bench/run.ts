/**
 * `npm run bench -- run [--trials N] [--rounds N]`
 *
 * 1. Throughput against a zero-latency loopback server (node:http in a child process, answering
 *    every request at once) at concurrency 32 and 128: trials per second of stimkit's run (the
 *    sending phase of `runStudy`: request building, fetch, classification, two ledger commits per
 *    trial) against a bare fetch loop sending the same payloads and parsing the replies, nothing
 *    recorded. Target: stimkit ≥ 0.8 × the bare loop.
 * 2. Ledger commits per second: the writer alone (attempt committed in flight, then attempt end
 *    and result in one transaction), WAL + synchronous NORMAL, on the temp folder's disk.
 * 3. Peak RSS of a `stimkit run` process (built dist/) on the paper study's instrument block
 *    (manifests/paper.study.yaml's instrument/main arm: 1,792 trials) for 11 simulated models:
 *    19,712 trial·model rows. Target ≤ 300 MiB.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { bundleStudy } from '../src/bundle/bundle.js';
import { PACKAGE_ROOT } from '../src/core/tool.js';
import { openLedgerDb } from '../src/ledger/open.js';
import { ensureRun } from '../src/ledger/runs.js';
import { LedgerWriter } from '../src/ledger/write.js';
import { ModelSpec } from '../src/models/schema.js';
import { Redactor } from '../src/core/redact.js';
import { buildRequest } from '../src/client/request.js';
import { runStudy, type RunResult } from '../src/run/run.js';
import { writeRunBag } from '../test/run/fixture.js';

const args = process.argv.slice(3);
const flag = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const N = flag('trials', 6000);
const rounds = flag('rounds', 3);
const print = (s: string) => process.stdout.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

const SERVER = `
const http = require('node:http');
const reply = JSON.stringify({ id: 'x', object: 'chat.completion', model: 'bench', choices: [{ index: 0, message: { role: 'assistant', content: 'Agree.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } });
const s = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reply) }); res.end(reply); }); });
s.keepAliveTimeout = 60000;
s.listen(0, '127.0.0.1', () => process.stdout.write(String(s.address().port) + '\\n'));
`;

async function startServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) =>
    child.stdout.once('data', (d) => resolve(String(d).trim())),
  );
  return { url: `http://127.0.0.1:${port}/v1`, stop: () => child.kill() };
}

async function bareLoop(url: string, bodies: string[], concurrency: number): Promise<number> {
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++]!;
        const res = await fetch(`${url}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(60_000),
        });
        const j = (await res.json()) as { choices: unknown[] };
        if (!Array.isArray(j.choices)) throw new Error('bad reply');
      }
    }),
  );
  return bodies.length / ((performance.now() - t) / 1000);
}

const root = await mkdtemp(path.join(os.tmpdir(), 'stimkit-bench-run-'));
try {
  print(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, node ${process.version}`);
  // 1. Throughput.
  const bag = path.join(root, 'bag');
  const { trials } = await writeRunBag(bag, N);
  const textTrials = trials.slice(0, N);
  const server = await startServer();
  const spec = ModelSpec.parse({ name: 'bench', endpoint: server.url });
  const bodies = textTrials.map((t) => JSON.stringify(buildRequest(t, spec).body));
  const models = path.join(root, 'models.yaml');
  await writeFile(
    models,
    stringify({
      format: 'stimkit.models',
      version: 1,
      models: [{ name: 'bench', endpoint: server.url, modalities: ['text'] }],
    }),
  );
  print(`\n1. ${N} text trials against a zero-latency loopback server (median of ${rounds})`);
  await bareLoop(server.url, bodies.slice(0, 500), 32); // warm up
  for (const c of [32, 128]) {
    const bare: number[] = [];
    const ours: number[] = [];
    const whole: number[] = [];
    for (let r = 0; r < rounds; r++) {
      bare.push(await bareLoop(server.url, bodies, c));
      const ledger = path.join(root, `l-${c}-${r}.sqlite`);
      const t = performance.now();
      const res = (await runStudy({
        bundle: bag,
        modelsFile: models,
        ledger,
        concurrency: c,
      })) as RunResult;
      const all = performance.now() - t;
      const m = res.models[0]!;
      if (m.done !== N) throw new Error(`run recorded ${m.done} of ${N}`);
      ours.push(N / (m.wallMs / 1000));
      whole.push(N / (all / 1000));
    }
    // Each round runs the bare loop and then stimkit back to back; the median of the paired ratios
    // is steadier than a ratio of medians on a shared machine.
    const ratio = median(ours.map((x, i) => x / bare[i]!));
    print(
      `   concurrency ${String(c).padStart(3)}: bare fetch ${median(bare).toFixed(0)} trials/s; stimkit run ${median(ours).toFixed(0)} trials/s (sending phase), ${median(whole).toFixed(0)} trials/s including verify and setup; median paired ratio ${ratio.toFixed(2)} (rounds ${ours.map((x, i) => (x / bare[i]!).toFixed(2)).join(', ')}; target ≥ 0.80) ${ratio >= 0.8 ? 'OK' : 'MISSED'}`,
    );
  }
  server.stop();

  // 2. Ledger commits per second.
  const file = path.join(root, 'commits.sqlite');
  const db = openLedgerDb(file);
  const run = ensureRun(db, file, 'f'.repeat(64), null);
  const writer = new LedgerWriter(
    db,
    run.run_id,
    'f'.repeat(64),
    new Redactor(['sk-bench-key-not-real']),
  );
  const K = 20_000;
  const t = performance.now();
  for (let i = 0; i < K; i++) {
    const id = writer.startAttempt(
      'bench',
      `t_${i}`,
      1,
      'run',
      'x'.repeat(64),
      'http://127.0.0.1/v1',
    );
    writer.recordFinal(
      id,
      'bench',
      `t_${i}`,
      { outcome: 'answer', latency_ms: 1 },
      {
        outcome: 'answer',
        request_sha256: 'x'.repeat(64),
        response_text: 'Agree. '.repeat(20),
        finish_reason: 'stop',
        usage: { prompt_tokens: 10, completion_tokens: 2 },
        attempts: 1,
      },
    );
  }
  const secs = (performance.now() - t) / 1000;
  // The same writes as run makes them under concurrency 32: grouped, one commit per event-loop turn.
  const g = performance.now();
  const before = writer.group.commits;
  for (let b = 0; b < K; b += 32) {
    const ids = await Promise.all(
      Array.from({ length: 32 }, (_, j) =>
        writer.group.run(() =>
          writer.startAttempt(
            'bench',
            `g_${b + j}`,
            1,
            'run',
            'x'.repeat(64),
            'http://127.0.0.1/v1',
          ),
        ),
      ),
    );
    await Promise.all(
      ids.map((id, j) =>
        writer.group.run(() =>
          writer.recordFinal(
            id,
            'bench',
            `g_${b + j}`,
            { outcome: 'answer', latency_ms: 1 },
            {
              outcome: 'answer',
              request_sha256: 'x'.repeat(64),
              response_text: 'Agree. '.repeat(20),
              finish_reason: 'stop',
              usage: { prompt_tokens: 10, completion_tokens: 2 },
              attempts: 1,
            },
          ),
        ),
      ),
    );
  }
  const gsecs = (performance.now() - g) / 1000;
  const gcommits = writer.group.commits - before;
  db.close();
  print(
    `\n2. ledger, one commit per write: ${K} trials, ${2 * K} commits in ${secs.toFixed(2)} s → ${Math.round((2 * K) / secs)} commits/s (${Math.round(K / secs)} trials/s)`,
  );
  print(
    `   grouped as run writes at concurrency 32: ${K} trials, ${gcommits} commits in ${gsecs.toFixed(2)} s → ${Math.round(gcommits / gsecs)} commits/s, ${Math.round(K / gsecs)} trials/s`,
  );

  // 3. Peak RSS, paper instrument block × 11 simulated models.
  const man = path.join(root, 'manifests');
  await cp(path.join(PACKAGE_ROOT, 'manifests'), man, { recursive: true });
  const paper = parse(await readFile(path.join(man, 'paper.study.yaml'), 'utf8'));
  for (const k of ['corpus', 'variants', 'prompts', 'paradigms']) delete paper[k];
  paper.instrument.arms = paper.instrument.arms.filter((a: { id: string }) => a.id === 'main');
  paper.expect = paper.expect.filter((e: { blocks: string[] }) =>
    e.blocks.every((b) => b === 'instrument/main'),
  );
  await writeFile(path.join(man, 'paper-instrument.study.yaml'), stringify(paper));
  const ib = await bundleStudy(path.join(man, 'paper-instrument.study.yaml'), {
    out: path.join(root, 'paper-instrument'),
  });
  const demo = parse(
    await readFile(path.join(PACKAGE_ROOT, 'manifests', 'demo.models.yaml'), 'utf8'),
  );
  const presets = demo.models.filter((m: { paradigms?: string[] }) =>
    m.paradigms?.includes('instrument'),
  );
  const sims = paper.models.llm.map((name: string, i: number) => ({
    ...presets[i % presets.length],
    name,
    sim: { ...presets[i % presets.length].sim, seed: 100 + i },
  }));
  const simModels = path.join(root, 'sim11.models.yaml');
  await writeFile(simModels, stringify({ format: 'stimkit.models', version: 1, models: sims }));
  execFileSync(
    process.execPath,
    [
      path.join(PACKAGE_ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      path.join(PACKAGE_ROOT, 'tsconfig.build.json'),
    ],
    { cwd: PACKAGE_ROOT },
  );
  const child = `
    const { runStudy } = await import(${JSON.stringify(path.join(PACKAGE_ROOT, 'dist/run/run.js'))});
    const t = performance.now();
    const r = await runStudy({ bundle: ${JSON.stringify(ib.out)}, modelsFile: ${JSON.stringify(simModels)}, ledger: ${JSON.stringify(path.join(root, 'sim11.sqlite'))}, where: 'block=instrument/main' });
    const rows = r.models.reduce((s, m) => s + m.done, 0);
    process.stdout.write(JSON.stringify({ rows, ms: performance.now() - t, maxRssKb: process.resourceUsage().maxRSS }));
  `;
  const out = JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', child], {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    }),
  );
  const mib = out.maxRssKb / 1024;
  print(
    `\n3. paper instrument block (${ib.trials} trials) × 11 simulated models: ${out.rows} rows in ${(out.ms / 1000).toFixed(1)} s (${Math.round(out.rows / (out.ms / 1000))} rows/s incl. verify); peak RSS ${mib.toFixed(0)} MiB (target ≤ 300) ${mib <= 300 ? 'OK' : 'MISSED'}`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
