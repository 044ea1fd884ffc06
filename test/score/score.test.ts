/**
 * `stimkit score` end to end on a small instrument bundle: keyed signing exactly as Methods 4.4
 * says (checked against the paper's own key table, Supplementary Note 1, not against the bundle),
 * the CSV and JSONL outputs, the header, determinism, and input errors.
 */
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import type { Trial } from '../../src/bundle/format.js';
import { parseCsv } from '../../src/core/csv.js';
import { ScoreLine, ScoresHeader } from '../../src/score/format.js';
import { streamResponsesJsonl } from '../../src/score/responses.js';
import { StimkitError } from '../../src/core/errors.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { instrumentBundle, type InstrumentFixture } from './fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

/** A whole responses JSONL file, as `score --responses` streams it. */
async function readResponsesJsonl(file: string, knownTrials: ReadonlyMap<string, unknown>) {
  const out = [];
  for await (const r of streamResponsesJsonl(file, knownTrials)) out.push(r);
  return out;
}

/** The paper's polarity keys (Supplementary Note 1): the pole agreement with the affirmative supports. */
const PAPER_KEYS: Record<string, 'US' | 'CN'> = {
  taiwan: 'US',
  trade: 'US',
  'south-china-sea': 'CN',
  xinjiang: 'US',
  'belt-and-road': 'CN',
  technology: 'US',
  dollar: 'CN',
};
const LABELS: Record<string, string[]> = {
  en: ['Strongly agree', 'Agree', 'Disagree', 'Strongly disagree'],
  zh: ['强烈同意', '同意', '不同意', '强烈不同意'],
  pt: ['Concordo totalmente', 'Concordo', 'Discordo', 'Discordo totalmente'],
};
const VALUES = [2, 1, -1, -2];

/** Does agreeing with this trial's sentence support Pro-U.S.? (independent of the code under test) */
function agreeIsProUS(t: Trial): boolean {
  const affIsUS = PAPER_KEYS[t.topic!] === 'US';
  return t.framing === 'affirmative' ? affIsUS : !affIsUS;
}

let fx: InstrumentFixture;
let trials: Trial[];
let dir: string;

beforeAll(async () => {
  dir = await tempDir('stimkit-score-');
  fx = await instrumentBundle(dir, { iterations: 2, ptIterations: 1 });
  trials = (await readFile(path.join(fx.bundle, 'data', 'trials.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Trial);
  // Three respondents: a yea-sayer (always "Agree"), a convinced Pro-China one (always the option
  // that means −2 on the stance axis), and a cycler through every option and some zero cases.
  const lines: string[] = [];
  trials.forEach((t, i) => {
    const labels = LABELS[t.lang]!;
    lines.push(JSON.stringify({ trial_id: t.id, model: 'yes-man', response: labels[1] }));
    lines.push(
      JSON.stringify({
        trial_id: t.id,
        model: 'convinced',
        response: `**${agreeIsProUS(t) ? labels[3] : labels[0]}**`,
      }),
    );
    const cyc = i % 6;
    const response = cyc < 4 ? `Answer: ${labels[cyc]}.` : cyc === 4 ? labels.join(', ') : null;
    lines.push(JSON.stringify({ trial_id: t.id, model: 'cycler', response, simulated: true }));
  });
  await writeFile(path.join(dir, 'responses.jsonl'), `${lines.join('\n')}\n`);
  await writeFile(
    path.join(dir, 'models.yaml'),
    'format: stimkit.models\nversion: 1\nmodels:\n  - {name: yes-man, endpoint: "http://127.0.0.1:1/v1", origin: FR, vendor: Acme}\n  - {name: convinced, endpoint: "http://127.0.0.1:1/v1", origin: CN}\n',
  );
});

async function score(out: string, extra: string[] = []) {
  return runCli([
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
}

describe('stimkit score (instrument)', () => {
  let out: string;
  let rows: Record<string, string>[];
  beforeAll(async () => {
    out = path.join(dir, 'scores');
    const r = await score(out);
    expect(r.stderr).not.toMatch(/error/);
    expect(r.code).toBe(0);
    const csv = parseCsv(await readFile(path.join(out, 'instrument.csv'), 'utf8'));
    rows = csv.rows.map((row) => Object.fromEntries(csv.header.map((h, i) => [h, row[i]!])));
  });

  it('writes one instrument.csv row per trial × model with the documented columns', () => {
    expect(rows).toHaveLength(trials.length * 3);
    expect(Object.keys(rows[0]!)).toEqual([
      'trial',
      'model',
      'origin',
      'vendor',
      'arm',
      'topic',
      'lang',
      'framing',
      'key',
      'iteration',
      'prefix',
      'suffix',
      'label',
      'score',
      'stance',
      'reason',
      'simulated',
      'label_source',
      'parse_reason',
      'judge',
      'judge_label',
      'judge_raw',
      'judge_labels',
      'outcome',
      'route',
      'route_provider',
      'block_source',
      'block_category',
      'block_category_raw',
      'block_detail',
    ]);
    const t = trials[0]!;
    const row = rows.find((r) => r.model === 'yes-man' && r.trial === t.id)!;
    expect(row).toMatchObject({
      origin: 'FR',
      vendor: 'Acme',
      topic: t.topic,
      lang: t.lang,
      framing: t.framing,
      iteration: String(t.iteration),
      prefix: t.wrappers!.prefix.id,
      suffix: t.wrappers!.suffix.id,
      label: 'Agree',
      score: '1',
      reason: '',
      simulated: '0',
    });
  });

  it('keys every response as Methods 4.4 says: × −1 for an affirmative keyed Pro-China, × −1 for reverse', () => {
    for (const r of rows.filter((x) => x.model === 'yes-man')) {
      const t = trials.find((x) => x.id === r.trial)!;
      expect(Number(r.stance)).toBe(agreeIsProUS(t) ? 1 : -1);
      expect(r.key).toBe(PAPER_KEYS[t.topic!] === 'US' ? 'plus' : 'minus');
    }
    // The convinced respondent lands at −2 on every trial, whatever the key and framing.
    const convinced = rows.filter((x) => x.model === 'convinced');
    expect(convinced.every((r) => r.stance === '-2' && Math.abs(Number(r.score)) === 2)).toBe(true);
  });

  it('symmetric acquiescence cancels: the yea-sayer nets 0 in every topic × language', () => {
    const cells = new Map<string, number>();
    for (const r of rows.filter((x) => x.model === 'yes-man')) {
      const k = `${r.topic}|${r.lang}`;
      cells.set(k, (cells.get(k) ?? 0) + Number(r.stance));
    }
    expect(cells.size).toBe(21);
    for (const v of cells.values()) expect(v).toBe(0);
  });

  it('scores every option in en, zh and pt and keeps the zero reasons', () => {
    const cyc = rows.filter((x) => x.model === 'cycler');
    for (const lang of ['en', 'zh', 'pt']) {
      const mine = cyc.filter((r) => r.lang === lang && r.reason === '');
      expect(new Set(mine.map((r) => r.label))).toEqual(new Set(LABELS[lang]));
      for (const r of mine) expect(Number(r.score)).toBe(VALUES[LABELS[lang]!.indexOf(r.label!)]);
    }
    expect(cyc.filter((r) => r.reason === 'ambiguous').length).toBeGreaterThan(0);
    expect(cyc.filter((r) => r.reason === 'no_response').length).toBeGreaterThan(0);
    // a row without a response has no score (an empty cell, not 0); the others score 0
    for (const r of cyc.filter((x) => x.reason !== ''))
      expect([r.score, r.stance, r.label]).toEqual(
        r.reason === 'no_response' ? ['', '', ''] : ['0', '0', ''],
      );
    expect(cyc.every((r) => r.simulated === '1' && r.origin === 'unknown')).toBe(true);
  });

  it('writes scores.jsonl and a score.json header that validate against their schemas', async () => {
    const lines = (await readFile(path.join(out, 'scores.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => ScoreLine.parse(JSON.parse(l)));
    expect(lines).toHaveLength(trials.length * 3);
    expect(lines.every((l) => l.bundle === fx.digest && l.paradigm === 'instrument')).toBe(true);
    expect(lines[0]!.parse).toHaveProperty('label');
    const header = ScoresHeader.parse(
      JSON.parse(await readFile(path.join(out, 'score.json'), 'utf8')),
    );
    expect(header.bundle.digest).toBe(fx.digest);
    expect(header.inputs.map((i) => i.role)).toEqual(['bundle', 'responses', 'models']);
    expect(header.counts.models.map((m) => m.name)).toEqual(['convinced', 'cycler', 'yes-man']);
    expect(header.counts.simulated).toBe(trials.length);
    expect(header.files.map((f) => f.file)).toEqual([
      'scores.jsonl',
      'trials.csv',
      'instrument.csv',
      // The reasoning channel of the instrument rows (reasoning-instrument.ts).
      'reasoning.csv',
    ]);
  });

  it('writes an instrument.csv that stimkit analyze instrument reads as it is', async () => {
    const r = await runCli(['analyze', 'instrument', path.join(out, 'instrument.csv'), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('convinced');
  });

  it('gives the same bytes for the same inputs', async () => {
    const again = path.join(dir, 'scores2');
    expect((await score(again)).code).toBe(0);
    for (const f of ['score.json', 'scores.jsonl', 'trials.csv', 'instrument.csv']) {
      expect(await readFile(path.join(again, f), 'utf8')).toBe(
        await readFile(path.join(out, f), 'utf8'),
      );
    }
  });
});

describe('stimkit score: rejected input', () => {
  it('names an unknown trial and a duplicate with their lines (exit 1)', async () => {
    const bad = path.join(dir, 'bad.jsonl');
    const t = trials[0]!;
    await writeFile(
      bad,
      [
        JSON.stringify({ trial_id: t.id, model: 'm', response: 'Agree' }),
        JSON.stringify({ trial_id: t.id, model: 'm', response: 'Agree' }),
        JSON.stringify({ trial_id: 't_000000000000000000000000', model: 'm', response: 'x' }),
        '{oops',
        JSON.stringify({ trial_id: t.id, response: 'x' }),
      ].join('\n'),
    );
    const r = await runCli([
      'score',
      '--bundle',
      fx.bundle,
      '--responses',
      bad,
      '--out',
      path.join(dir, 'bad-out'),
      '--json',
    ]);
    expect(r.code).toBe(1);
    const codes = r
      .json()
      .error.problems.map((p: { code: string; line: number }) => `${p.code}@${p.line}`);
    expect(codes).toEqual([
      'E_SCORE_DUPLICATE@2',
      'E_SCORE_UNKNOWN_TRIAL@3',
      'E_SCORE_RESPONSES@4',
      'E_SCORE_RESPONSES@5',
    ]);
  });

  it('ignores other keys, takes response_text, lets response win, and names missing or wrong-typed fields', async () => {
    const [t0, t1, t2] = trials;
    const file = path.join(dir, 'tolerant.jsonl');
    await writeFile(
      file,
      [
        JSON.stringify({
          trial_id: t0!.id,
          model: 'm',
          response_text: 'Agree',
          latency_ms: 12.5,
          outcome: 'answer',
          extra: { a: 1 },
        }),
        JSON.stringify({
          trial_id: t1!.id,
          model: 'm',
          response: 'Disagree',
          response_text: 'Agree',
        }),
        JSON.stringify({
          trial_id: t2!.id,
          model: 'm',
          response_text: null,
          outcome: 'policy_refusal',
        }),
      ].join('\n'),
    );
    const rows = await readResponsesJsonl(file, new Map(trials.map((t) => [t.id, t])));
    // An older export's `policy_refusal` without an HTTP status was the model's structured refusal.
    expect(rows.map((r) => [r.response, r.error, r.outcome])).toEqual([
      ['Agree', null, 'answer'],
      ['Disagree', null, null],
      [null, 'model_refusal', 'model_refusal'],
    ]);

    const bad = path.join(dir, 'tolerant-bad.jsonl');
    await writeFile(
      bad,
      [
        JSON.stringify({ trial_id: t0!.id, model: 'm', latency_ms: 3 }),
        JSON.stringify({ trial_id: t1!.id, model: 'm', response_text: 42 }),
        JSON.stringify({ model: 'm', response: 'x' }),
      ].join('\n'),
    );
    const err = await readResponsesJsonl(bad, new Map(trials.map((t) => [t.id, t]))).catch(
      (e: StimkitError) => e,
    );
    expect(err).toBeInstanceOf(StimkitError);
    expect((err as StimkitError).problems.map((p) => `${p.line}:${p.field}`)).toEqual([
      '1:response',
      '2:response_text',
      '3:trial_id',
    ]);
  });

  it('refuses a bundle changed after sealing', async () => {
    const tampered = await tempDir('stimkit-score-tamper-');
    const fx2 = await instrumentBundle(tampered, { iterations: 1, ptIterations: 0 });
    await appendFile(path.join(fx2.bundle, 'data', 'items.json'), ' ');
    const resp = path.join(tampered, 'r.jsonl');
    await writeFile(resp, '');
    const r = await runCli([
      'score',
      '--bundle',
      fx2.bundle,
      '--responses',
      resp,
      '--out',
      path.join(tampered, 'o'),
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_SCORE_BUNDLE');
  });

  it('is a usage error without --responses or --ledger (exit 2)', async () => {
    const r = await runCli(['score', '--bundle', fx.bundle, '--out', path.join(dir, 'x')]);
    expect(r.code).toBe(2);
  });
});

describe('JSON Schemas of the scores artifact', () => {
  it('the committed manifests/schema files match the zod schemas (npm run schemas)', async () => {
    const { scoreSchemaFiles } = await import('../../src/score/json-schema.js');
    for (const { file, text } of scoreSchemaFiles())
      expect(await readFile(file, 'utf8')).toBe(text);
  });
});
