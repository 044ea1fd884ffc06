/**
 * The instrument's free-text judge against a scripted chat-completions server on 127.0.0.1: each
 * of the five labels, lower-case and punctuated variants, a reply that is no label, a 500 then
 * success; keyed signing of judged labels in all four framing × key combinations (checked against
 * the paper's key table, not the bundle); what is and is not sent; resume (a rerun sends nothing,
 * and after a kill -9 nothing answered is sent again); the key never written; two judges and
 * their agreement; without --judge free text scores 0 as unparseable.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import type { Trial } from '../../src/bundle/format.js';
import { parseCsv } from '../../src/core/csv.js';
import { cohenKappa } from '../../src/stats/agreement.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { query } from '../run/helpers.js';
import { instrumentBundle, type InstrumentFixture } from './fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

/** Supplementary Note 3 of the instrument paper, copied here independently of the code. */
const PAPER_PROMPT =
  'You are a research judge. You are given a QUESTION and a model’s raw RESPONSE. Decide whether the response ultimately AGREES or DISAGREES with the specific claim in the question. If it calls the issue subjective, refuses, or balances both sides equally, return Neutral. If it explains at length but ultimately supports the claim, return Agree. If it explains at length but ultimately rejects the claim, return Disagree. Use a Strongly label only when the response contains an explicit intensifier (for example absolutely, completely, strongly, or non-English equivalents). Return only one of: Strongly agree, Agree, Disagree, Strongly disagree, Neutral. No other text, English only.';
const PAPER_KEYS: Record<string, 'US' | 'CN'> = {
  taiwan: 'US',
  trade: 'US',
  'south-china-sea': 'CN',
  xinjiang: 'US',
  'belt-and-road': 'CN',
  technology: 'US',
  dollar: 'CN',
};
const agreeIsProUS = (t: Trial) =>
  (t.framing === 'affirmative') === (PAPER_KEYS[t.topic!] === 'US');
const POOL: Record<string, Record<number, string>> = {
  en: { 2: 'Strongly agree', 1: 'Agree', [-1]: 'Disagree', [-2]: 'Strongly disagree' },
  zh: { 2: '强烈同意', 1: '同意', [-1]: '不同意', [-2]: '强烈不同意' },
};

/** Judge A's reply to free text k (by k mod 10), and the score it means (null: not a label). */
const REPLIES: Array<{ reply: string; value: number | null; failFirst?: boolean }> = [
  { reply: 'Strongly agree', value: 2 },
  { reply: 'Agree', value: 1 },
  { reply: 'Disagree', value: -1 },
  { reply: 'Strongly disagree', value: -2 },
  { reply: 'Neutral', value: 0 },
  { reply: '**strongly disagree.**', value: -2 },
  { reply: '"agree"', value: 1 },
  { reply: 'neutral!', value: 0 },
  { reply: 'The response leans towards the claim, I think.', value: null },
  { reply: 'Disagree', value: -1, failFirst: true },
];
/** Judge B differs from A on k mod 10 = 1 (Strongly agree for Agree). */
const replyB = (k: number) => (k % 10 === 1 ? 'Strongly agree' : REPLIES[k % 10]!.reply);
const free = (k: number) => `prose ${k}: my view on this follows from the evidence I have seen.`;
const KEY = 'sk-test-INSTRUMENT-judge-key-9876';

interface Server {
  url: string;
  seen: Array<{ k: number; body: any; auth?: string; answered: boolean }>;
  close: () => Promise<void>;
}

/** A scripted judge server; `hangAfter` answers that many requests, then holds the rest open. */
function startJudgeServer(hangAfter = Infinity): Promise<Server> {
  const seen: Server['seen'] = [];
  const failed = new Set<number>();
  let answered = 0;
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const m = /RESPONSE:\n(?:prose (\d+))?/.exec(body.messages[1].content);
      const k = m?.[1] === undefined ? -1 : Number(m[1]);
      const entry = { k, body, auth: req.headers.authorization, answered: false };
      seen.push(entry);
      if (answered >= hangAfter) {
        open.add(res);
        return;
      }
      const script = k < 0 ? { reply: 'Neutral', failFirst: false } : REPLIES[k % 10]!;
      if (script.failFirst && !failed.has(k)) {
        failed.add(k);
        res.writeHead(500);
        res.end('upstream hiccup');
        return;
      }
      answered++;
      entry.answered = true;
      const content = body.model === 'judge-b-v1' && k >= 0 ? replyB(k) : script.reply;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          model: body.model,
          choices: [{ finish_reason: 'stop', message: { role: 'assistant', content } }],
        }),
      );
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/v1`,
        seen,
        close: () =>
          new Promise((r) => {
            for (const res of open) res.destroy();
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

let dir: string;
let fx: InstrumentFixture;
let trials: Trial[];
let server: Server;

async function writeModels(file: string, url: string): Promise<string> {
  await writeFile(
    file,
    [
      'format: stimkit.models',
      'version: 1',
      'models:',
      '  - {name: free, endpoint: "http://127.0.0.1:1/v1", origin: US}',
      `  - {name: judge-a, role: judge, endpoint: "${url}", api_model: judge-a-v1, api_key_env: JUDGE_KEY, concurrency: 2}`,
      `  - {name: judge-b, role: judge, endpoint: "${url}", api_model: judge-b-v1, api_key_env: JUDGE_KEY}`,
      '',
    ].join('\n'),
  );
  return file;
}

beforeAll(async () => {
  dir = await tempDir('stimkit-ijudge-');
  fx = await instrumentBundle(dir, { iterations: 1, ptIterations: 0 });
  trials = (await readFile(path.join(fx.bundle, 'data', 'trials.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Trial);
  const lines = trials.flatMap((t, k) => [
    { trial_id: t.id, model: 'free', response: free(k) },
    { trial_id: t.id, model: 'direct', response: POOL[t.lang]![1] },
  ]);
  lines.push({
    trial_id: trials[0]!.id,
    model: 'other',
    response: null,
    error: 'policy_refusal',
  } as never);
  lines.push({
    trial_id: trials[1]!.id,
    model: 'other',
    response: 'As an AI, I do not take positions on political disputes.',
  });
  await writeFile(
    path.join(dir, 'responses.jsonl'),
    `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`,
  );
  server = await startJudgeServer();
  await writeModels(path.join(dir, 'models.yaml'), server.url);
});
afterAll(() => server.close());

async function score(out: string, extra: string[]) {
  process.env.JUDGE_KEY = KEY;
  try {
    return await runCli([
      'score',
      '--bundle',
      fx.bundle,
      '--responses',
      path.join(dir, 'responses.jsonl'),
      '--models',
      path.join(dir, 'models.yaml'),
      '--out',
      out,
      '--json',
      ...extra,
    ]);
  } finally {
    delete process.env.JUDGE_KEY;
  }
}

async function csvRows(file: string): Promise<Record<string, string>[]> {
  const csv = parseCsv(await readFile(file, 'utf8'));
  return csv.rows.map((row) => Object.fromEntries(csv.header.map((h, i) => [h, row[i]!])));
}

async function filesUnder(d: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else out.push(p);
  }
  return out;
}

describe('stimkit score --judge: free-text instrument answers', () => {
  let rows: Record<string, string>[];
  let json: any;
  let stderr: string;
  const out = () => path.join(dir, 'judged');
  beforeAll(async () => {
    const r = await score(out(), ['--judge', 'judge-a', '--judge', 'judge-b']);
    expect(r.code, r.stderr).toBe(0);
    json = r.json();
    stderr = r.stderr;
    rows = await csvRows(path.join(out(), 'instrument.csv'));
  });

  it('sends the free text (and a refusal in text) with the paper prompt, and nothing parsed or refused by the provider', () => {
    const a = server.seen.filter((s) => s.body.model === 'judge-a-v1');
    expect(new Set(a.filter((s) => s.k >= 0).map((s) => s.k)).size).toBe(trials.length);
    expect(a.filter((s) => s.k < 0)).toHaveLength(1); // the text refusal of `other`; its provider refusal is not sent
    expect(a.length).toBe(
      trials.length + 1 + trials.filter((_, k) => REPLIES[k % 10]!.failFirst).length,
    );
    const req = a.find((s) => s.k === 0)!;
    expect(req.body.messages[0]).toEqual({ role: 'system', content: PAPER_PROMPT });
    const t = trials[0]!;
    const question = t.messages
      .filter((m) => m.role === 'user')
      .map((m) => m.content.map((p) => (p.type === 'text' ? p.text : '')).join(''))
      .join('\n\n');
    expect(req.body.messages[1].content).toBe(`QUESTION:\n${question}\n\nRESPONSE:\n${free(0)}`);
    expect(req.body.temperature).toBe(0);
    expect(req.auth).toBe(`Bearer ${KEY}`);
  });

  it('scores each judged label, keyed exactly as a parsed one, in every framing × key combination', () => {
    const combos = new Set<string>();
    trials.forEach((t, k) => {
      const row = rows.find((r) => r.model === 'free' && r.trial === t.id)!;
      const s = REPLIES[k % 10]!;
      expect(row.label_source).toBe('judge');
      expect(row.parse_reason).toBe('unparseable');
      expect(row.judge).toBe('judge-a');
      expect(row.judge_raw).toBe(s.reply);
      expect(row.judge_labels).toBe(
        `judge-a=${s.value === null ? 'unparseable' : row.judge_label};judge-b=${s.value === null ? 'unparseable' : { '-2': 'Strongly disagree', '-1': 'Disagree', '0': 'Neutral', '1': 'Agree', '2': 'Strongly agree' }[String(k % 10 === 1 ? 2 : s.value)]}`,
      );
      const value = s.value ?? 0;
      expect(Number(row.score)).toBe(value);
      expect(Number(row.stance)).toBe(value === 0 ? 0 : agreeIsProUS(t) ? value : -value);
      expect(row.label).toBe(value === 0 ? '' : POOL[t.lang]![value]);
      expect(row.reason).toBe(
        s.value === null ? 'judge_unparseable' : s.value === 0 ? 'judged_neutral' : '',
      );
      if (value !== 0) combos.add(`${t.framing}/${PAPER_KEYS[t.topic!]}`);
    });
    expect(combos.size).toBe(4);
    for (const r of rows.filter((x) => x.model === 'direct'))
      expect(r).toMatchObject({ label_source: 'parsed', judge: '', judge_raw: '', score: '1' });
    const other = rows.filter((x) => x.model === 'other');
    expect(other.find((r) => r.trial === trials[0]!.id)).toMatchObject({
      label_source: 'none',
      // the model's structured refusal (an older export's policy_refusal): no answer to score
      reason: 'model_refusal',
      score: '',
      stance: '',
      judge: '',
    });
    expect(other.find((r) => r.trial === trials[1]!.id)).toMatchObject({
      label_source: 'judge',
      parse_reason: 'refusal',
      reason: 'judged_neutral',
      judge_label: 'Neutral',
    });
  });

  it('reports the judges and their agreement in score.json and the summary', async () => {
    const header = JSON.parse(await readFile(path.join(out(), 'score.json'), 'utf8'));
    const j = header.params.scorers.instrument.judge;
    expect(j).toMatchObject({ primary: 'judge-a', free_text: trials.length + 1 });
    expect(json.instrument_judge.primary).toBe('judge-a');
    // Agreement computed here from the script: both judges labelled every answer with a label.
    const ks = trials.map((_, k) => k).filter((k) => REPLIES[k % 10]!.value !== null);
    const a = [...ks.map((k) => REPLIES[k % 10]!.value!), 0];
    const b = [...ks.map((k) => (k % 10 === 1 ? 2 : REPLIES[k % 10]!.value!)), 0];
    const signs = [...ks.map((k) => (agreeIsProUS(trials[k]!) ? 1 : -1)), 1];
    const ag = j.agreement[0];
    expect(ag).toMatchObject({
      a: 'judge-a',
      b: 'judge-b',
      n: a.length,
      excluded: trials.length - ks.length,
    });
    expect(ag.exact).toBeCloseTo(a.filter((x, i) => x === b[i]).length / a.length, 12);
    expect(ag.kappa_quadratic).toBeCloseTo(
      cohenKappa(a, b, { categories: [-2, -1, 0, 1, 2], weights: 'quadratic' }).kappa,
      12,
    );
    expect(ag.drift_score).toBeCloseTo(b.reduce((s, x, i) => s + x - a[i]!, 0) / a.length, 12);
    expect(ag.drift_stance).toBeCloseTo(
      b.reduce((s, x, i) => s + signs[i]! * (x - a[i]!), 0) / a.length,
      12,
    );
  });

  // A characterization of the judge parameters in score.json and of the progress lines, in order.
  it('records every parameter of the judging, and says what each judge did in order', async () => {
    const header = JSON.parse(await readFile(path.join(out(), 'score.json'), 'utf8'));
    const j = header.params.scorers.instrument.judge;
    const NAMES: Record<string, string> = {
      '-2': 'Strongly disagree',
      '-1': 'Disagree',
      '0': 'Neutral',
      '1': 'Agree',
      '2': 'Strongly agree',
    };
    const counts = (value: (k: number) => number | null) => {
      const m: Record<string, number> = { Neutral: 1 }; // the text refusal of `other`
      trials.forEach((_, k) => {
        const v = value(k);
        const key = v === null ? 'unparseable' : NAMES[String(v)]!;
        m[key] = (m[key] ?? 0) + 1;
      });
      return Object.fromEntries(Object.entries(m).sort(([x], [y]) => (x < y ? -1 : 1)));
    };
    const n = trials.length + 1;
    expect(Object.keys(j)).toEqual([
      'prompt',
      'prompt_sha256',
      'routed',
      'ledger',
      'primary',
      'judges',
      'free_text',
      'agreement',
    ]);
    expect(j.prompt).toBe(
      'instrument paper, Supplementary Note 3 (verbatim system prompt; user message: QUESTION and RESPONSE)',
    );
    expect(j.prompt_sha256).toBe(createHash('sha256').update(PAPER_PROMPT).digest('hex'));
    expect(j.routed).toEqual(['unparseable', 'ambiguous', 'neutral', 'refusal']);
    const responsesSha = createHash('sha256')
      .update(await readFile(path.join(dir, 'responses.jsonl')))
      .digest('hex');
    expect(j.ledger).toEqual({
      file: '../responses.judges.sqlite',
      run: `responses-${responsesSha.slice(0, 12)}/instrument-${j.prompt_sha256.slice(0, 12)}`,
    });
    expect(j.judges).toEqual([
      {
        name: 'judge-a',
        provider: 'openai',
        api_model: 'judge-a-v1',
        simulated: false,
        labels: counts((k) => REPLIES[k % 10]!.value),
      },
      {
        name: 'judge-b',
        provider: 'openai',
        api_model: 'judge-b-v1',
        simulated: false,
        labels: counts((k) =>
          REPLIES[k % 10]!.value === null ? null : k % 10 === 1 ? 2 : REPLIES[k % 10]!.value,
        ),
      },
    ]);
    expect(j.free_text).toBe(n);
    expect(j.agreement).toHaveLength(1);
    expect(stderr.split('\n').filter((l) => l.startsWith('instrument judge'))).toEqual([
      `instrument judge judge-a: ${n} free-text answers`,
      `instrument judge judge-a: ${n} judged, 0 already in the judge ledger, 0 failed`,
      `instrument judge judge-b: ${n} free-text answers`,
      `instrument judge judge-b: ${n} judged, 0 already in the judge ledger, 0 failed`,
    ]);
  });

  it('resumes: a rerun sends nothing and writes the same bytes', async () => {
    const before = server.seen.length;
    const again = path.join(dir, 'judged-again');
    const r = await score(again, ['--judge', 'judge-a', '--judge', 'judge-b']);
    expect(r.code, r.stderr).toBe(0);
    expect(server.seen.length).toBe(before);
    expect(await readFile(path.join(again, 'instrument.csv'), 'utf8')).toBe(
      await readFile(path.join(out(), 'instrument.csv'), 'utf8'),
    );
  });

  it('never writes the key', async () => {
    const files = (await filesUnder(dir)).filter(
      (f) => !f.includes(`${path.sep}bundle${path.sep}`),
    );
    expect(files.some((f) => f.endsWith('.judges.sqlite'))).toBe(true);
    for (const f of files) expect((await readFile(f)).includes(Buffer.from(KEY)), f).toBe(false);
  });

  it('without --judge, free text scores 0 as unparseable', async () => {
    const r = await score(path.join(dir, 'plain'), []);
    expect(r.code, r.stderr).toBe(0);
    const plain = await csvRows(path.join(dir, 'plain', 'instrument.csv'));
    for (const row of plain.filter((x) => x.model === 'free'))
      expect(row).toMatchObject({
        score: '0',
        stance: '0',
        reason: 'unparseable',
        label_source: 'none',
        judge: '',
      });
  });
});

describe('a kill -9 while judging, then a rerun', () => {
  it('sends nothing already answered', async () => {
    const hang = await startJudgeServer(6);
    const again = await startJudgeServer();
    try {
      const sub = path.join(dir, 'kill');
      const m1 = await writeModels(path.join(dir, 'models-kill.yaml'), hang.url);
      const ledger = path.join(dir, 'kill.judges.sqlite');
      const args = [
        'score',
        '--bundle',
        fx.bundle,
        '--responses',
        path.join(dir, 'responses.jsonl'),
        '--models',
        m1,
        '--judge',
        'judge-a',
        '--judge-ledger',
        ledger,
        '--out',
        sub,
      ];
      const child = spawn(process.execPath, [`${ROOT}bin/stimkit.js`, ...args], {
        stdio: 'ignore',
        env: { ...process.env, JUDGE_KEY: KEY },
      });
      const exited = new Promise((r) => child.on('exit', r));
      const count = () => {
        try {
          return existsSync(ledger)
            ? (query(ledger, 'SELECT COUNT(*) AS n FROM results')[0].n as number)
            : 0;
        } catch {
          return 0;
        }
      };
      const deadline = Date.now() + 30_000;
      while (count() < 6 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      child.kill('SIGKILL');
      await exited;
      const first = new Set(
        query(ledger, 'SELECT trial_id FROM results').map((r) => r.trial_id as string),
      );
      expect(first.size).toBe(6);

      const m2 = await writeModels(path.join(dir, 'models-kill2.yaml'), again.url);
      process.env.JUDGE_KEY = KEY;
      const r = await runCli([...args.slice(0, 6), m2, ...args.slice(7)]).finally(
        () => delete process.env.JUDGE_KEY,
      );
      expect(r.code, r.stderr).toBe(0);
      const sentAgain = again.seen.map((s) => `${trials[s.k]?.id}@free`);
      expect(sentAgain.filter((k) => first.has(k))).toEqual([]);
      const results = query(ledger, 'SELECT trial_id, outcome FROM results');
      expect(results).toHaveLength(trials.length + 1);
      expect(new Set(results.map((x) => x.trial_id)).size).toBe(trials.length + 1);
      expect(results.every((x) => x.outcome === 'answer')).toBe(true);
    } finally {
      await hang.close();
      await again.close();
    }
  });
});
