/**
 * `stimkit analyze pressure`: the per-turn rates, the conversation measures and the per-model
 * logit of a small hand-written pair of pressure tables (test/analyze/pressure-fixture.ts, where
 * every stance is listed). Each expected number is derived by hand in the comments; the logit is
 * checked against `analyze logit` on the same rows and against a numpy sandwich
 * (test/analyze/fixtures/pressure_logit_reference.py).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { pressureConversations } from '../../src/analyze/pressure.js';
import { m1Csv, writePressureTables } from './pressure-fixture.js';

const dir = await tempDir('stimkit-analyze-pressure-');
const { files } = await writePressureTables(dir);

/** Wilson 95 % (z = 1.959964): centre (p̂ + z²/2n)/(1 + z²/n) ∓ z/(1 + z²/n)·√(p̂(1 − p̂)/n + z²/4n²). */
const W = {
  '1/3': [0.061492, 0.79234], // centre 0.42692, half 0.36542
  '3/4': [0.300642, 0.954413],
  '2/4': [0.150039, 0.849961],
  '1/4': [0.045587, 0.699358],
  '1/1': [0.206549, 1], // x = n: upper exactly 1
  '2/2': [0.34238, 1],
  '1/2': [0.094531, 0.905469],
} as const;

const run = async (...extra: string[]) => {
  const r = await runCli(['analyze', 'pressure', files.turns, '--json', ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return { ...r, j: r.json() };
};

const near = (got: number | null, want: number) => expect(got).toBeCloseTo(want, 5);

describe('analyze pressure', () => {
  it('gives the per-turn changed and side_changed rates with Wilson intervals and the reasons of the rest', async () => {
    const { j, stderr } = await run();
    expect(j.format).toBe('stimkit.analyze.pressure');
    expect(j.version).toBe(1);
    expect(j.input.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(j.input.conversations.rows).toBe(8);
    expect(j.simulated).toEqual({ rows: 32, of: 32 });
    // outcome rule of `changed` (answers and unrecorded): c5's provider_block and c6's not_sent left out
    expect(j.outcomes).toMatchObject({
      outcomes: ['answer', 'unrecorded'],
      kept: 30,
      left_out: { provider_block: 1, not_sent: 1 },
    });
    const t = (m: string, lang: string, turn: number) =>
      j.turns.find((r: any) => r.model === m && r.lang === lang && r.turn === turn);
    // m1 en turn 2: changed c1 0, c2 1, c3 0; c4 unparseable → 1/3; side the same; c2 plus
    const en2 = t('m1', 'en', 2);
    expect(en2).toMatchObject({ followup: 'are_you_sure', conversations: 4, with_stance: 3 });
    expect(en2.changed).toMatchObject({ x: 1, n: 3 });
    near(en2.changed.lower, W['1/3'][0]);
    near(en2.changed.upper, W['1/3'][1]);
    expect([en2.side_changed.x, en2.plus, en2.minus]).toEqual([1, 1, 0]);
    expect(en2.not_told_reasons).toEqual({ unparseable: 1 });
    // turn 3: c1 −1 vs 2 (minus, side), c2 1 vs −2 (plus, side), c3 same, c4 2 vs 1 (plus, same side)
    const en3 = t('m1', 'en', 3);
    expect([en3.changed.x, en3.changed.n, en3.side_changed.x, en3.plus, en3.minus]).toEqual([
      3, 4, 2, 2, 1,
    ]);
    near(en3.changed.lower, W['3/4'][0]);
    near(en3.side_changed.upper, W['2/4'][1]);
    // turn 4: only c1 still differs (−1 vs 2) → 1/4
    near(t('m1', 'en', 4).changed.upper, W['1/4'][1]);
    // turn 1 is the reference: no rate, every row "first_turn"
    const en1 = t('m1', 'en', 1);
    expect([en1.changed.n, en1.changed.rate, en1.with_stance]).toEqual([0, null, 4]);
    expect(en1.not_told_reasons).toEqual({ first_turn: 4 });
    // zh turn 1: c5 blocked (left out by the outcome rule, its reason), c6 answered
    expect(t('m1', 'zh', 1).not_told_reasons).toEqual({ first_turn: 1, provider_block: 1 });
    // zh turn 2: c5 has no first stance, c6 changed → 1/1, upper exactly 1
    const zh2 = t('m1', 'zh', 2);
    expect(zh2.changed).toMatchObject({ x: 1, n: 1, upper: 1 });
    near(zh2.changed.lower, W['1/1'][0]);
    expect(zh2.not_told_reasons).toEqual({ first_turn_no_stance: 1 });
    // zh turn 4: nothing to rate: an empty rate, and why
    const zh4 = t('m1', 'zh', 4);
    expect([zh4.changed.n, zh4.changed.rate, zh4.changed.lower, zh4.not_told]).toEqual([
      0,
      null,
      null,
      2,
    ]);
    expect(zh4.not_told_reasons).toEqual({ first_turn_no_stance: 1, 'not_sent:turn_failed': 1 });
    expect(stderr).toContain('m1 en turn 2 (are_you_sure): changed 1/3 (33.3 %');
  });

  it('takes the outcomes --outcomes names', async () => {
    // c5's blocked first turn kept: it has no stance either way, so it counts as turn 1 (first_turn)
    const { j } = await run('--outcomes', 'answer,provider_block,unrecorded');
    expect(j.outcomes).toMatchObject({ default: false, kept: 31, left_out: { not_sent: 1 } });
    const zh1 = j.turns.find((r: any) => r.model === 'm1' && r.lang === 'zh' && r.turn === 1);
    expect(zh1.not_told_reasons).toEqual({ first_turn: 2 });
  });

  it('counts each of several reasons the scorer joins with ;', () => {
    const row = (conversation: string, reason: string) => ({
      conversation,
      model: 'm',
      language: 'en',
      changed_ever: '0',
      final_changed: '',
      side_changed_ever: '0',
      first_change_turn: '',
      first_change_direction: '',
      flips: '0',
      reason,
    });
    const [c] = pressureConversations([
      row('a', 'final_turn_not_sent;never_changed'),
      row('b', 'never_changed'),
    ]);
    expect(c!.reasons).toEqual({ final_turn_not_sent: 1, never_changed: 2 });
  });

  it('summarises the conversations: changed ever, final changed, flips with a t interval, the turn of the first change', async () => {
    const { j } = await run();
    const c = (m: string, lang: string) =>
      j.conversations.find((r: any) => r.model === m && r.lang === lang);
    const en = c('m1', 'en');
    // changed_ever c1 1, c2 1, c3 0, c4 1 → 3/4; final_changed c1 only → 1/4; side ever c1, c2 → 2/4
    expect([
      en.changed_ever.x,
      en.changed_ever.n,
      en.final_changed.x,
      en.side_changed_ever.x,
    ]).toEqual([3, 4, 1, 2]);
    near(en.final_changed.lower, W['1/4'][0]);
    near(en.side_changed_ever.lower, W['2/4'][0]);
    // flips 1, 2, 0, 1: mean 1, sd √(2/3) = 0.816497, half-width t(0.975, 3)·sd/2 = 3.182446 × 0.408248 = 1.299228
    expect(en.flips.n).toBe(4);
    near(en.flips.mean, 1);
    near(en.flips.sd, Math.sqrt(2 / 3));
    near(en.flips.lower, 1 - 1.299228);
    near(en.flips.upper, 1 + 1.299228);
    // first change: c2 at 2; c1, c4 at 3; c3 never; directions c2 plus, c4 plus, c1 minus
    expect(en.first_change_turn).toEqual({ '2': 1, '3': 2 });
    expect([en.never_changed, en.first_change_plus, en.first_change_minus]).toEqual([1, 2, 1]);
    expect(en.reasons).toEqual({ never_changed: 1 });
    // zh: c5 no first stance; c6 changed, last turn not sent → final_changed has no value at all
    const zh = c('m1', 'zh');
    expect(zh.final_changed).toEqual({ x: 0, n: 0, rate: null, lower: null, upper: null });
    expect(zh.changed_ever).toMatchObject({ x: 1, n: 1 });
    // one flip count (c6: 2) → a mean and no interval, with why
    expect(zh.flips).toEqual({
      n: 1,
      mean: 2,
      sd: null,
      lower: null,
      upper: null,
      reason: 'one_conversation',
    });
    expect(zh.reasons).toEqual({ final_turn_not_sent: 1, first_turn_no_stance: 1 });
    // m2: flips 3, 2 → mean 2.5, sd √0.5, half-width t(0.975, 1)·0.5 = 12.706205 × 0.5 = 6.353102
    const m2 = c('m2', 'en');
    near(m2.flips.lower, 2.5 - 6.353102);
    near(m2.final_changed.upper, W['1/2'][1]);
    near(m2.changed_ever.lower, W['2/2'][0]);
  });

  it("fits changed ~ followup per model clustered by conversation, as analyze logit does, and passes the fitter's refusal on", async () => {
    const { j, stderr } = await run();
    const m1 = j.logit.find((f: any) => f.model === 'm1');
    // saturated one-factor logit: the intercept is logit(2/4) = 0 (are_you_sure: c1 0, c2 1, c3 0,
    // c6 1), authority logit(3/5) − 0 = ln 1.5, counter_claim logit(1/4) − 0 = ln(1/3)
    expect(m1.result.names).toEqual([
      'Intercept',
      'followup[T.authority]',
      'followup[T.counter_claim]',
    ]);
    const want = [0, Math.log(1.5), Math.log(1 / 3)];
    m1.result.coef.forEach((b: number, k: number) => expect(b).toBeCloseTo(want[k]!, 9));
    // the numpy sandwich (fixtures/pressure_logit_reference.py): G = 5, N = 13, K = 3
    const se = [1.2247448713915885, 1.6583123951776997, 2.2360679774997894];
    m1.result.se.forEach((v: number, k: number) => expect(v).toBeCloseTo(se[k]!, 9));
    expect([m1.rows, m1.conversations, m1.result.nClusters]).toEqual([13, 5, 5]);
    expect(m1.warnings[0]).toMatch(/only 5 clusters of conversation.*run more conversations/);
    // `analyze logit` on m1's rows alone, turn 1 left out as incomplete (its changed is empty)
    const single = path.join(dir, 'm1.csv');
    await writeFile(single, m1Csv());
    const ref = await runCli([
      'analyze',
      'logit',
      single,
      '--outcome',
      'changed',
      '--predictors',
      'followup',
      '--cluster',
      'conversation',
      '--complete',
      '--json',
    ]);
    expect(ref.code, ref.stderr).toBe(0);
    expect(m1.result).toEqual(ref.json().result);
    expect(m1.warnings).toEqual(ref.json().warnings);
    // m2: 2 conversations for 3 coefficients: the fitter's refusal, not a number
    const m2 = j.logit.find((f: any) => f.model === 'm2');
    expect(m2.result).toBeNull();
    expect(m2.refused.code).toBe('E_STATS_FEW_CLUSTERS');
    expect(m2.reason).toMatch(/^E_STATS_FEW_CLUSTERS: only 2 clusters for 3 coefficients/);
    expect(stderr).toContain('m2: no fit: E_STATS_FEW_CLUSTERS');
  });

  it('keeps an entry, with the reason, for a model whose every turn the outcome rule left out', async () => {
    const { j } = await run('--outcomes', 'provider_block');
    expect(j.logit.map((f: any) => [f.model, f.rows, f.result, f.reason])).toEqual([
      ['m1', 0, null, 'no turn after the first has a value of changed'],
      ['m2', 0, null, 'every turn of the model was left out by outcome (answer 8)'],
    ]);
  });

  it('writes the three tables with --out, empty cells where nothing can be computed', async () => {
    const out = path.join(dir, 'out');
    await run('--out', out);
    const read = async (f: string) =>
      parse<Record<string, string>>(await readFile(path.join(out, f), 'utf8'), { columns: true });
    const turns = await read('pressure-turns.csv');
    const zh4 = turns.find((r) => r.model === 'm1' && r.lang === 'zh' && r.turn === '4')!;
    expect([zh4.changed_n, zh4.changed_rate, zh4.not_told_reasons]).toEqual([
      '0',
      '',
      'first_turn_no_stance:1; not_sent:turn_failed:1',
    ]);
    const convs = await read('pressure-conversations-summary.csv');
    const zh = convs.find((r) => r.model === 'm1' && r.lang === 'zh')!;
    expect([zh.flips_mean, zh.flips_lower, zh.flips_reason, zh.first_change_turns]).toEqual([
      '2',
      '',
      'one_conversation',
      '2:1',
    ]);
    const logit = await read('pressure-logit.csv');
    // every results table carries its simulated column (the fixture's rows are all simulated)
    for (const t of [turns, convs, logit]) expect(t.every((r) => r.simulated === '1')).toBe(true);
    expect(logit.filter((r) => r.model === 'm1').map((r) => r.term)).toEqual([
      'Intercept',
      'followup[T.authority]',
      'followup[T.counter_claim]',
    ]);
    const m2 = logit.filter((r) => r.model === 'm2');
    expect(m2.length).toBe(1);
    expect([m2[0]!.estimate, m2[0]!.clusters]).toEqual(['', '2']);
    expect(m2[0]!.reason).toMatch(/^E_STATS_FEW_CLUSTERS/);
  });

  it('refuses a table without the columns it reads, and a pressure.csv without its conversations', async () => {
    const bad = path.join(dir, 'bad');
    await writePressureTables(await tempDir('stimkit-pressure-bad-'));
    const text = await readFile(files.turns, 'utf8');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(bad, { recursive: true });
    const cut = text.replace('side_changed,', 'side_flipped,');
    await writeFile(path.join(bad, 'pressure.csv'), cut);
    await writeFile(
      path.join(bad, 'pressure-conversations.csv'),
      await readFile(files.conversations, 'utf8'),
    );
    const r = await runCli(['analyze', 'pressure', path.join(bad, 'pressure.csv'), '--json']);
    expect(r.code).toBe(1);
    const e = JSON.parse(r.stdout).error;
    expect(e.code).toBe('E_ANALYZE_COLUMN');
    expect(e.problems[0]).toMatchObject({ field: 'side_changed', line: 1 });
    expect(e.problems[0].file).toBe(path.join(bad, 'pressure.csv'));
    expect(e.problems[0].fix).toMatch(/stimkit score/);
    const lone = path.join(dir, 'lone');
    await mkdir(lone, { recursive: true });
    await writeFile(path.join(lone, 'pressure.csv'), text);
    const r2 = await runCli(['analyze', 'pressure', path.join(lone, 'pressure.csv'), '--json']);
    expect(r2.code).toBe(1);
    expect(JSON.parse(r2.stdout).error.code).toBe('E_ANALYZE_READ');
  });
});
