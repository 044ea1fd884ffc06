/**
 * The judges at scale, end to end: a bundle (the demo study), a run against a local respondent
 * server, then both judges of score (the audit judge, D1–D6, and the instrument's free-text
 * judge), for two judge models, two ways on the same responses:
 * - live: `score --judge` against the test judge server;
 * - through batch files: `batch export --judge` (one file per judge and judging), a local fake
 *   batch processor answering each line as the live server would (fake-batch.ts), `batch import
 *   --judge`, then `score --judge` with the judges' endpoint a server that counts requests (and
 *   refuses them): it must receive none.
 * Both give the same scores.jsonl and tables byte for byte. Importing twice changes nothing; an
 * output of the wrong format, with an unknown custom_id, cut short, of another judge, or of a
 * changed response is refused naming file and line, with nothing recorded.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { bundleStudy } from '../../src/bundle/bundle.js';
import type { Trial } from '../../src/bundle/format.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { DEMO_VARIANTS_LOCK, requireCommitted } from '../helpers/committed.js';
import { openHandlesTo } from '../helpers/open-files.js';
import { tempDir } from '../helpers/tmp.js';
import { query } from '../run/helpers.js';
import { startServer, type TestServer } from '../run/server.js';
import { runFakeBatch } from './fake-batch.js';
import { startJudgeServer, type JudgeServer } from './judge-server.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 612 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(34) });

const DEMO = path.join(ROOT, 'manifests', 'demo.study.yaml');
const WHERE = 'paradigm=comment-text|comment-image|instrument,lang=en';
const JUDGES = ['judge-a', 'judge-b'];
const RESPONSE =
  'The photograph shows a crowd in a square; I would rather not take a side on this.';

let dir: string;
let bundle: string;
let ledger: string;
let respondent: TestServer;
let live: JudgeServer;
let network: JudgeServer;

const models = (judgeUrl: string) =>
  [
    'format: stimkit.models',
    'version: 1',
    'models:',
    `  - {name: judge-a, role: judge, endpoint: "${judgeUrl}", api_model: org/judge-a-v1, api_key_env: JUDGE_KEY}`,
    `  - {name: judge-b, role: judge, endpoint: "${judgeUrl}", api_model: org/judge-b-v2}`,
    '',
  ].join('\n');

const judgeFlags = (modelsFile: string, judgeLedger: string) => [
  '--bundle',
  bundle,
  '--ledger',
  ledger,
  '--models',
  modelsFile,
  '--judge-ledger',
  judgeLedger,
];

const judged = (judgeLedger: string) =>
  query(judgeLedger, 'SELECT COUNT(*) AS n FROM attempts')[0].n as number;

beforeAll(async () => {
  requireCommitted(DEMO_VARIANTS_LOCK);
  dir = await tempDir('stimkit-judge-e2e-');
  bundle = path.join(dir, 'bundle');
  await bundleStudy(DEMO, { out: bundle, work: path.join(dir, 'work') });
  respondent = await startServer(() => ({ kind: 'ok', text: RESPONSE }));
  live = await startJudgeServer();
  network = await startJudgeServer(true);
  ledger = path.join(dir, 'run.sqlite');
  const run = await runCli([
    'run',
    bundle,
    '--model',
    'resp',
    '--endpoint',
    respondent.url,
    '--where',
    WHERE,
    '--ledger',
    ledger,
  ]);
  expect(run.code, run.stderr).toBe(0);
  await writeFile(path.join(dir, 'live.models.yaml'), models(live.url));
  await writeFile(path.join(dir, 'batch.models.yaml'), models(network.url));
});
afterAll(async () => {
  await respondent?.close();
  await live?.close();
  await network?.close();
});

async function score(modelsFile: string, judgeLedger: string, out: string) {
  process.env.JUDGE_KEY = 'sk-test-judge-e2e-key';
  try {
    return await runCli([
      'score',
      ...judgeFlags(modelsFile, judgeLedger),
      ...JUDGES.flatMap((j) => ['--judge', j]),
      '--out',
      out,
      '--json',
    ]);
  } finally {
    delete process.env.JUDGE_KEY;
  }
}

describe('judges through batch export / import', () => {
  const batchModels = () => path.join(dir, 'batch.models.yaml');
  const batchLedger = () => path.join(dir, 'batch.judges.sqlite');
  const importJudge = (judge: string, files: string[]) =>
    runCli([
      'batch',
      'import',
      ...files,
      ...judgeFlags(batchModels(), batchLedger()).filter((_, i) => i > 1),
      '--bundle',
      bundle,
      '--judge',
      judge,
      '--json',
    ]);
  let outputs: Record<string, string[]>;

  it('exports one OpenAI Batch file per judge and judging, and sends nothing', async () => {
    const out = path.join(dir, 'requests');
    const r = await runCli([
      'batch',
      'export',
      bundle,
      ...judgeFlags(batchModels(), batchLedger()).slice(2),
      ...JUDGES.flatMap((j) => ['--judge', j]),
      '--out',
      out,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const files = r.json().judges as Array<{
      judge: string;
      judging: string;
      file: string;
      requests: number;
    }>;
    expect(files.map((f) => `${f.judge} ${f.judging}`).sort()).toEqual([
      'judge-a audit',
      'judge-a instrument',
      'judge-b audit',
      'judge-b instrument',
    ]);
    // 6 comment-text + 6 comment-image responses; 56 instrument answers in free text
    for (const f of files) expect(f.requests).toBe(f.judging === 'audit' ? 12 : 56);
    expect((await readdir(out)).sort()).toEqual([
      'judge-a.instrument.requests.jsonl',
      'judge-a.rubric.requests.jsonl',
      'judge-b.instrument.requests.jsonl',
      'judge-b.rubric.requests.jsonl',
    ]);
    expect(network.requests).toBe(0);
    outputs = { 'judge-a': [], 'judge-b': [] };
    for (const f of files) {
      const output = f.file.replace('.requests.jsonl', '.output.jsonl');
      await runFakeBatch(f.file, output);
      outputs[f.judge]!.push(output);
    }
  });

  // A characterization of what the audit judge is told (score/audit-prepare.ts): for every VLM
  // response, the trial, its entry's title, topic, sensitivity and expected facts in each language,
  // the prompt text, language and paradigm, the image on image paradigms only, and the response.
  it('asks the audit judge about each VLM response with its entry, prompt and image', async () => {
    const trials = new Map(
      (await readFile(path.join(bundle, 'data', 'trials.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Trial)
        .map((t) => [t.id, t]),
    );
    const entries = new Map(
      (
        JSON.parse(await readFile(path.join(bundle, 'data', 'entries.json'), 'utf8')) as {
          entries: Array<Record<string, any>>;
        }
      ).entries.map((e) => [e.id as string, e]),
    );
    const texts = (o: Record<string, unknown>) =>
      Object.entries(o)
        .filter(([k, v]) => k !== 'id' && typeof v === 'string')
        .map(([l, v]) => `[${l}] ${String(v)}`)
        .join(' / ');
    const lines = (
      await readFile(path.join(dir, 'requests', 'judge-a.rubric.requests.jsonl'), 'utf8')
    )
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { body: { messages: Array<{ content: any }> } });
    const seen: string[] = [];
    for (const { body } of lines) {
      const user = body.messages[1]!.content;
      const text: string = Array.isArray(user) ? user[0].text : user;
      const t = trials.get(/^TRIAL (\S+)/.exec(text)![1]!)!;
      const e = entries.get(t.entry!)!;
      const image = t.paradigm === 'comment-image';
      seen.push(`${t.paradigm} ${t.lang}`);
      expect(Array.isArray(user)).toBe(image);
      if (image) expect(user[1].type).toBe('image_url');
      const prompt = t.messages
        .flatMap((m) => m.content)
        .map((p) => (p.type === 'text' ? p.text : ''))
        .join('\n');
      expect(text).toBe(
        [
          `TRIAL ${t.id}`,
          `SUBJECT GROUND TRUTH\n${[
            `title: ${texts(e.title)}`,
            ...(e.topic ? [`topic: ${e.topic}`] : []),
            `sensitivity: ${e.sensitivity}`,
            'expected facts:',
            ...(e.expected_facts as Array<Record<string, unknown>>).map(
              (f) => `  - ${String(f.id)}: ${texts(f)}`,
            ),
          ].join('\n')}`,
          `PROMPT (language: ${t.lang}; paradigm: ${t.paradigm}; modality: ${image ? 'image shown (attached)' : 'text only (no image: D3 is null)'})\n<<<PROMPT\n${prompt}\nPROMPT>>>`,
          `RESPONSE\n<<<RESPONSE\n${RESPONSE}\nRESPONSE>>>`,
        ].join('\n\n'),
      );
    }
    expect(seen.sort()).toEqual([
      ...Array(6).fill('comment-image en'),
      ...Array(6).fill('comment-text en'),
    ]);
  });

  it('refuses a bad output naming file and line, recording nothing', async () => {
    const good = (await readFile(outputs['judge-a']![0]!, 'utf8')).trim().split('\n');
    const bad = async (name: string, lines: string[], judge = 'judge-a') => {
      const file = path.join(dir, name);
      await writeFile(file, `${lines.join('\n')}\n`);
      const r = await importJudge(judge, [file]);
      expect(r.code).toBe(1);
      // the refused file is closed, not left open for the garbage collector to close
      expect(openHandlesTo(file), name).toBe(0);
      return { file, stderr: r.stderr };
    };
    const line2 = JSON.parse(good[1]!);
    const anthropic = JSON.stringify({
      custom_id: line2.custom_id,
      result: { type: 'succeeded', message: { model: 'org/judge-a-v1', content: [] } },
    });
    const unknown = JSON.stringify({
      ...line2,
      custom_id: line2.custom_id.replace(/@resp$/, '@other'),
    });
    const cases = [
      { name: 'format.jsonl', lines: [good[0]!, anthropic], code: 'E_BATCH_FORMAT', line: 2 },
      { name: 'unknown.jsonl', lines: [good[0]!, unknown], code: 'E_JUDGE_BATCH_UNKNOWN', line: 2 },
      {
        name: 'cut.jsonl',
        lines: [...good.slice(0, 3), good[3]!.slice(0, 40)],
        code: 'E_BATCH_LINE',
        line: 4,
      },
      {
        name: 'other-judge.jsonl',
        lines: good.slice(0, 2),
        code: 'E_BATCH_MODEL',
        line: 1,
        judge: 'judge-b',
      },
    ];
    for (const c of cases) {
      const { file, stderr } = await bad(c.name, c.lines, c.judge);
      expect(stderr).toContain(c.code);
      expect(stderr).toContain(`${file}:${c.line}`);
    }
    // a changed response: the request the judge would send now is another one
    const changed = JSON.stringify({
      ...line2,
      custom_id: line2.custom_id.replace(/:[0-9a-f]{16}:/, ':0123456789abcdef:'),
    });
    const { stderr } = await bad('changed.jsonl', [good[0]!, changed]);
    expect(stderr).toContain('E_JUDGE_BATCH_REQUEST');
    expect(network.requests).toBe(0);
    expect(judged(batchLedger())).toBe(0);
  });

  it('imports each judge once: a second import changes nothing', async () => {
    for (const judge of JUDGES) {
      const r = await importJudge(judge, outputs[judge]!);
      expect(r.code, r.stderr).toBe(0);
      const got = r.json().judges as Array<{ judging: string; recorded: number; failed: number }>;
      expect(got.map((g) => [g.judging, g.recorded, g.failed]).sort()).toEqual([
        ['audit', 12, 0],
        ['instrument', 56, 0],
      ]);
    }
    const before = judged(batchLedger());
    expect(before).toBe(2 * (12 + 56));
    const again = await importJudge('judge-a', outputs['judge-a']!);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json().judges.map((g: any) => [g.recorded, g.skipped])).toEqual([
      [0, 12],
      [0, 56],
    ]);
    expect(judged(batchLedger())).toBe(before);
  });

  it('scores from the imported files sending nothing, exactly as the live judging', async () => {
    const batchOut = path.join(dir, 'scores-batch');
    const b = await score(batchModels(), batchLedger(), batchOut);
    expect(b.code, b.stderr).toBe(0);
    expect(network.requests).toBe(0);
    const liveOut = path.join(dir, 'scores-live');
    const liveLedger = path.join(dir, 'live.judges.sqlite');
    const l = await score(path.join(dir, 'live.models.yaml'), liveLedger, liveOut);
    expect(l.code, l.stderr).toBe(0);
    expect(live.requests).toBe(2 * (12 + 56));
    const files = (await readdir(liveOut)).filter((f) => f !== 'score.json').sort();
    expect(files).toContain('scores.jsonl');
    expect(files).toContain('instrument.csv');
    expect(files).toContain('judges.csv');
    expect((await readdir(batchOut)).filter((f) => f !== 'score.json').sort()).toEqual(files);
    for (const f of files)
      expect(await readFile(path.join(batchOut, f), 'utf8'), f).toBe(
        await readFile(path.join(liveOut, f), 'utf8'),
      );
    // the judge ledgers: the same request hashes, outcomes, texts and served models
    const rows = (file: string) =>
      query(
        file,
        'SELECT model, trial_id, request_sha256, outcome, response_text, finish_reason, served_model, usage FROM results ORDER BY model, trial_id',
      );
    expect(rows(batchLedger())).toEqual(rows(liveLedger));
  });

  it('writes a judge’s requests in parts within --part-requests, and imports the parts of a folder as one file', async () => {
    const partsLedger = path.join(dir, 'parts.judges.sqlite');
    const flags = judgeFlags(batchModels(), partsLedger);
    const out = path.join(dir, 'parts-requests');
    const r = await runCli([
      'batch',
      'export',
      bundle,
      ...flags.slice(2),
      '--judge',
      'judge-a',
      '--part-requests',
      '5',
      '--out',
      out,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const got = r.json().judges as Array<{ judging: string; requests: number; parts: any[] }>;
    const audit = got.find((g) => g.judging === 'audit')!;
    expect(audit.parts.map((p) => [path.basename(p.file), p.requests])).toEqual([
      ['judge-a.rubric.requests.part-0001-of-0003.jsonl', 5],
      ['judge-a.rubric.requests.part-0002-of-0003.jsonl', 5],
      ['judge-a.rubric.requests.part-0003-of-0003.jsonl', 2],
    ]);
    const instrument = got.find((g) => g.judging === 'instrument')!;
    expect(instrument.parts).toHaveLength(12); // 56 = 11 × 5 + 1
    const results = path.join(dir, 'parts-results');
    const written: string[] = [];
    for (const p of [...audit.parts, ...instrument.parts]) {
      const o = path.join(results, path.basename(p.file).replace('.requests.', '.results.'));
      await mkdir(results, { recursive: true });
      await runFakeBatch(p.file, o);
      written.push(o);
    }
    const importArgs = (files: string[]) => [
      'batch',
      'import',
      ...files,
      ...flags.filter((_, i) => i > 1),
      '--bundle',
      bundle,
      '--judge',
      'judge-a',
      '--json',
    ];
    const twice = await runCli(importArgs([written[0]!, ...written.slice(0, 3).reverse()]));
    expect(twice.code).toBe(1);
    expect(twice.json().error.code).toBe('E_BATCH_PARTS');
    const imp = await runCli(importArgs([results]));
    expect(imp.code, imp.stderr).toBe(0);
    expect(
      imp
        .json()
        .judges.map((g: any) => [g.judging, g.recorded, g.files.length])
        .sort(),
    ).toEqual([
      ['audit', 12, 3],
      ['instrument', 56, 12],
    ]);
    const rows = (file: string) =>
      query(
        file,
        "SELECT trial_id, request_sha256, outcome, response_text, usage FROM results WHERE model = 'judge-a' ORDER BY trial_id",
      );
    expect(rows(partsLedger)).toEqual(rows(batchLedger()));
    expect(network.requests).toBe(0);
  });

  it('score --judge-batch-out writes parts within --part-requests, and --judge-batch-in records every part', async () => {
    const partsLedger = path.join(dir, 'score-parts.judges.sqlite');
    const flags = judgeFlags(batchModels(), partsLedger);
    const out = path.join(dir, 'score-parts-requests');
    const scoreArgs = (extra: string[]) => [
      'score',
      ...flags,
      '--judge',
      'judge-a',
      ...extra,
      '--out',
      path.join(dir, 'score-parts-scores'),
      '--json',
    ];
    const alone = await runCli(scoreArgs(['--part-requests', '5']));
    expect(alone.code).toBe(2);
    expect(alone.json().error.code).toBe('E_SCORE_USAGE');
    const r = await runCli(scoreArgs(['--judge-batch-out', out, '--part-requests', '5']));
    expect(r.code, r.stderr).toBe(0);
    const names = (await readdir(out)).sort();
    const of = (what: string, n: number) =>
      Array.from(
        { length: n },
        (_, i) =>
          `judge-a.${what}.requests.part-${String(i + 1).padStart(4, '0')}-of-${String(n).padStart(4, '0')}.jsonl`,
      );
    expect(names).toEqual([...of('instrument', 12), ...of('rubric', 3)]);
    const results = path.join(dir, 'score-parts-results');
    await mkdir(results, { recursive: true });
    let lines = 0;
    for (const name of names) {
      const text = await readFile(path.join(out, name), 'utf8');
      const n = text.trim().split('\n').length;
      expect(n).toBeLessThanOrEqual(5);
      lines += n;
      await runFakeBatch(
        path.join(out, name),
        path.join(results, name.replace('.requests.', '.results.')),
      );
    }
    expect(lines).toBe(12 + 56);
    const imp = await runCli(scoreArgs(['--judge-batch-in', results]));
    expect(imp.code, imp.stderr).toBe(0);
    const recorded = query(
      partsLedger,
      "SELECT COUNT(*) AS n FROM results WHERE model = 'judge-a'",
    );
    expect(recorded[0].n).toBe(12 + 56);
    expect(network.requests).toBe(0);
  });
});
