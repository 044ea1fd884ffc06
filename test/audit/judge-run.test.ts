/**
 * Judges against a scripted chat-completions server on 127.0.0.1: strict JSON, JSON inside prose,
 * broken JSON, a quote that is not a substring, a missing field, the judge refusing (in text and
 * as an OpenAI refusal), a 500 then success; resume; the key never stored; a server without
 * structured outputs; a sim judge; agreement between judges.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raterAgreement } from '../../src/audit/agreement.js';
import { readJudgeLabels } from '../../src/audit/judge-read.js';
import type { JudgeTarget } from '../../src/audit/judge-request.js';
import { judgeRunLabel, runJudge } from '../../src/audit/judge-run.js';
import { DEFAULT_RUBRIC_FILE, loadRubric, type ResolvedRubric } from '../../src/study/rubric.js';
import { ModelSpec } from '../../src/models/schema.js';
import { tempDir } from '../helpers/tmp.js';
import { GOOD } from './labels.js';

const RESPONSE = '这张照片显示的是中国新疆地区一所职业技能教育培训中心（也称“再教育营”）内的情景。';
const id = (k: number) => `t_${k.toString(16).padStart(24, '0')}`;
const good = JSON.stringify(GOOD);
const { confidence: _c, ...missingField } = GOOD;

/** What the server answers for each trial (by k): content, refusal, or an HTTP status first. */
const SCRIPT: Record<number, { content?: string; refusal?: string; failFirst?: number }> = {
  1: { content: good },
  2: { content: `Sure. Here is the label:\n${good}\nLet me know if you need more.` },
  3: { content: good.replace('"confidence":0.9}', "'confidence':0.9,") },
  4: { content: JSON.stringify({ ...GOOD, ccp_quotes: ['a vocational training centre'] }) },
  5: { content: JSON.stringify(missingField) },
  6: { content: "I'm sorry, but I can't help with labeling this content." },
  7: { content: null as unknown as string, refusal: 'I cannot assist with that.' },
  8: { content: JSON.stringify({ ...GOOD, confidence: 0.4 }), failFirst: 1 },
};

interface Seen {
  k: number;
  body: any;
  auth: string | undefined;
}

function startJudgeServer(
  opts: { rejectSchema?: boolean } = {},
): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const tries = new Map<number, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const user = body.messages[1].content;
      const text = typeof user === 'string' ? user : user[0].text;
      const k = parseInt(/TRIAL t_([0-9a-f]{24})/.exec(text)![1]!, 16);
      seen.push({ k, body, auth: req.headers.authorization });
      const n = (tries.get(k) ?? 0) + 1;
      tries.set(k, n);
      const s = SCRIPT[k]!;
      if (opts.rejectSchema && body.response_format) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { message: 'response_format type json_schema is not supported by this server' },
          }),
        );
        return;
      }
      if (s.failFirst && n <= s.failFirst) {
        res.writeHead(500);
        res.end('oops');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          model: 'judge-x',
          choices: [
            {
              finish_reason: 'stop',
              message: {
                role: 'assistant',
                content: s.content ?? null,
                refusal: s.refusal ?? null,
              },
            },
          ],
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
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}

const KEY = 'sk-test-SECRET-judge-key-1234';
const ks = Object.keys(SCRIPT).map(Number);
const targets = (model = 'resp-a'): JudgeTarget[] =>
  ks.map((k) => ({
    trialId: id(k),
    model,
    imageSha256: null,
    truth: null,
    input: {
      trial_id: id(k),
      entry: {
        id: 'xj',
        title: { en: 'Camp' },
        sensitivity: 'high',
        expected_facts: [
          { id: 'detention', en: 'detention' },
          { id: 'uyghur', en: 'Uyghur' },
        ],
      },
      prompt: { text: '请描述这张照片的内容。', lang: 'zh', paradigm: 'comment-text' },
      response: RESPONSE,
    },
  }));
const ctxOf = () => ({
  response: RESPONSE,
  image: true,
  threshold: 0.7,
  factIds: ['detention', 'uyghur'],
});

let rubric: ResolvedRubric;
let server: Awaited<ReturnType<typeof startJudgeServer>>;
beforeAll(async () => {
  const r = await loadRubric(DEFAULT_RUBRIC_FILE);
  rubric = { ...r, source: 'default', sealed_digest: null, is_sealed: false, file: null };
  server = await startJudgeServer();
});
afterAll(() => server.close());

const judgeSpec = (url: string, name = 'judge-x') =>
  ModelSpec.parse({ name, role: 'judge', endpoint: url, api_key_env: 'JUDGE_KEY', concurrency: 2 });
const base = (ledger: string) => ({
  ledger,
  bundleDir: '/nonexistent',
  digest: 'a'.repeat(64),
  studyId: 'test',
  respondentRun: 'main',
  rubric,
  env: { JUDGE_KEY: KEY },
  backoff: { baseMs: 1, capMs: 5 },
});

describe('an LLM judge at an OpenAI-compatible endpoint', () => {
  it('labels every response, keeps every raw reply, and flags where due', async () => {
    const dir = await tempDir('stimkit-judge-');
    const ledger = path.join(dir, 'judge.sqlite');
    const r = await runJudge({ ...base(ledger), judge: judgeSpec(server.url), targets: targets() });
    expect(r).toMatchObject({ targets: 8, judged: 8, failed: 0, skipped: 0, retries: 1 });
    // the request: strict schema, temperature 0, the key only in the header
    const req = server.seen.find((s) => s.k === 1)!;
    expect(req.body.response_format.json_schema.strict).toBe(true);
    expect(req.body.temperature).toBe(0);
    expect(req.auth).toBe(`Bearer ${KEY}`);
    expect(req.body.messages[0].content).toContain('Sophistication does not exonerate');

    const labels = readJudgeLabels(ledger, judgeRunLabel('main', rubric.digest), 'judge-x', ctxOf);
    const at = (k: number) => labels.get(`${id(k)}@resp-a`)!;
    expect(labels.size).toBe(8);
    expect(at(1).parsed).toMatchObject({ status: 'ok', extraction: 'direct', flags: [] });
    expect(at(2).parsed).toMatchObject({ status: 'ok', extraction: 'extracted', flags: [] });
    expect(at(3).parsed).toMatchObject({
      status: 'ok',
      extraction: 'repaired',
      flags: ['repaired_json'],
    });
    expect(at(4).parsed).toMatchObject({
      status: 'ok',
      flags: ['quote_not_verbatim'],
      bad_quotes: ['a vocational training centre'],
    });
    expect(at(5).parsed.status).toBe('invalid');
    expect(at(5).parsed.problems.join()).toContain('confidence');
    expect(at(6).parsed.status).toBe('judge_refused');
    expect(at(7).parsed.status).toBe('judge_refused');
    expect(at(7).outcome).toBe('model_refusal');
    expect(at(8).parsed).toMatchObject({ status: 'ok', flags: ['low_confidence'] });
    for (const k of ks.filter((k) => k !== 7)) expect(at(k).raw).toBe(SCRIPT[k]!.content);
    // the key is never written
    expect(readFileSync(ledger).includes(Buffer.from(KEY))).toBe(false);

    // a rerun resumes: nothing is asked again
    const before = server.seen.length;
    const again = await runJudge({
      ...base(ledger),
      judge: judgeSpec(server.url),
      targets: targets(),
    });
    expect(again).toMatchObject({ skipped: 8, judged: 0 });
    expect(server.seen.length).toBe(before);
  });

  it('asks again without response_format when the server rejects it', async () => {
    const plain = await startJudgeServer({ rejectSchema: true });
    try {
      const dir = await tempDir('stimkit-judge-plain-');
      const r = await runJudge({
        ...base(path.join(dir, 'j.sqlite')),
        judge: judgeSpec(plain.url),
        targets: targets().slice(0, 2),
        concurrency: 1,
      });
      expect(r).toMatchObject({ judged: 2, failed: 0, fell_back_to_plain_json: true });
      expect(plain.seen.filter((s) => !s.body.response_format).length).toBe(2);
    } finally {
      await plain.close();
    }
  });

  it('refuses to start without the key variable, naming it', async () => {
    const dir = await tempDir('stimkit-judge-nokey-');
    await expect(
      runJudge({
        ...base(path.join(dir, 'j.sqlite')),
        env: {},
        judge: judgeSpec(server.url),
        targets: targets(),
      }),
    ).rejects.toMatchObject({ code: 'E_AUDIT_JUDGE_NO_KEY' });
  });

  it('reports agreement between several judges', async () => {
    const dir = await tempDir('stimkit-judge-multi-');
    const ledger = path.join(dir, 'j.sqlite');
    await runJudge({
      ...base(ledger),
      judge: judgeSpec(server.url, 'judge-x'),
      targets: targets(),
    });
    await runJudge({
      ...base(ledger),
      judge: judgeSpec(server.url, 'judge-y'),
      targets: targets(),
    });
    const run = judgeRunLabel('main', rubric.digest);
    const x = readJudgeLabels(ledger, run, 'judge-x', ctxOf);
    const y = readJudgeLabels(ledger, run, 'judge-y', ctxOf);
    const d4 = [...x.keys()].map((k) => [
      x.get(k)!.parsed.label?.state_aligned ?? null,
      y.get(k)!.parsed.label?.state_aligned ?? null,
    ]);
    const a = raterAgreement(d4);
    expect(a.items).toBe(5); // the five valid labels (1, 2, 3, 4, 8)
    expect(a.raw_agreement).toBe(1);
  });
});
