/**
 * `stimkit compare` on two scores folders of one bundle whose differences the test made: exactly
 * the edited trials are found, with their transitions, exact McNemar and Holm, and the trials on
 * one side only listed.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { compareScores } from '../../src/compare/index.js';
import { sha256 } from '../../src/core/fsio.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { compareFixture, scoreLines, type ResponseLine } from './fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

let dir: string;
let fx: Awaited<ReturnType<typeof compareFixture>>;
let scoresA: string;
let scoresB: string;
/** The pairs the test changed, as `trial|model`. */
const edited = new Set<string>();
let removed: ResponseLine;
let enCell: { model: string; n: number };

beforeAll(async () => {
  dir = await tempDir('stimkit-compare-');
  fx = await compareFixture(dir);
  const en = fx.trials.filter((t) => t.lang === 'en');
  const zh = fx.trials.filter((t) => t.lang === 'zh');
  const b: ResponseLine[] = fx.a.map((l) => ({ ...l }));
  const find = (trial: string, model: string) =>
    b.find((l) => l.trial_id === trial && l.model === model)!;
  const edit = (trial: string, model: string, change: Partial<ResponseLine>) => {
    Object.assign(find(trial, model), change);
    edited.add(`${trial}|${model}`);
  };
  // m2 in English: every answer flips from "Strongly agree" to "Disagree" (McNemar b = n)
  for (const t of en) edit(t.id, 'm2', { response: `Answer: ${fx.labels.en![2]!}` });
  enCell = { model: 'm2', n: en.length };
  // m1: one provider block (no text), one model refusal, one answer turned into another label
  edit(zh[0]!.id, 'm1', { response: null, outcome: 'provider_block' });
  edit(zh[1]!.id, 'm1', { response: null, outcome: 'model_refusal' });
  edit(zh[2]!.id, 'm1', { response: `答案：${fx.labels.zh![1]!}` });
  // a trial scored in A only, and an extra model scored in B only
  removed = b.splice(b.indexOf(find(zh[3]!.id, 'm1')), 1)[0]!;
  b.push({ trial_id: en[0]!.id, model: 'm3', response: 'Answer: Agree', outcome: 'answer' });
  scoresA = await scoreLines(dir, fx.bundle, 'a', fx.a);
  scoresB = await scoreLines(dir, fx.bundle, 'b', b);
});

describe('compare', () => {
  it('finds exactly the trials that changed, and lists the unpaired ones', async () => {
    const r = await compareScores(scoresA, scoresB);
    expect(new Set(r.changed.map((c) => `${c.trial}|${c.model}`))).toEqual(edited);
    expect(r.counts).toMatchObject({
      paired: fx.a.length - 1,
      changed: edited.size,
      only_a: 1,
      only_b: 1,
    });
    expect(r.only_a).toEqual([
      { trial: removed.trial_id, model: 'm1', paradigm: 'instrument', language: 'zh', route: null },
    ]);
    expect(r.only_b.map((t) => `${t.trial}|${t.model}`)).toEqual([
      `${fx.trials.find((t) => t.lang === 'en')!.id}|m3`,
    ]);
  });

  it('moves a non-answer to its outcome, never to 0', async () => {
    const r = await compareScores(scoresA, scoresB);
    const zh = fx.trials.filter((t) => t.lang === 'zh');
    const first = fx.labels.zh![0]!;
    const of = (trial: string) => r.changed.find((c) => c.trial === trial && c.model === 'm1')!;
    expect(of(zh[0]!.id).columns).toEqual({
      outcome: { a: 'answer', b: 'provider_block' },
      label: { a: first, b: 'outcome:provider_block' },
    });
    expect(of(zh[1]!.id).columns.label).toEqual({ a: first, b: 'outcome:model_refusal' });
    expect(of(zh[2]!.id).columns).toEqual({ label: { a: first, b: fx.labels.zh![1]! } });
    const t = r.transitions.filter(
      (x) => x.model === 'm1' && x.language === 'zh' && x.column === 'outcome',
    );
    const zhM1 = zh.length - 1; // one zh trial of m1 is in A only
    expect(t).toEqual([
      {
        model: 'm1',
        route_a: null,
        route_b: null,
        language: 'zh',
        paradigm: 'instrument',
        column: 'outcome',
        from: 'answer',
        to: 'answer',
        n: zhM1 - 2,
      },
      {
        model: 'm1',
        route_a: null,
        route_b: null,
        language: 'zh',
        paradigm: 'instrument',
        column: 'outcome',
        from: 'answer',
        to: 'model_refusal',
        n: 1,
      },
      {
        model: 'm1',
        route_a: null,
        route_b: null,
        language: 'zh',
        paradigm: 'instrument',
        column: 'outcome',
        from: 'answer',
        to: 'provider_block',
        n: 1,
      },
    ]);
  });

  it('tests each cell with the exact McNemar and Holm across the cells of a column', async () => {
    const r = await compareScores(scoresA, scoresB);
    const cell = r.mcnemar.find(
      (m) => m.model === enCell.model && m.language === 'en' && m.column === 'label',
    )!;
    // every pair agreed in A and disagreed in B: b = n, c = 0; p = 2 · 0.5^n
    expect(cell).toMatchObject({ n: enCell.n, excluded: 0, a: 0, b: enCell.n, c: 0, d: 0 });
    expect(cell.p_exact).toBeCloseTo(2 * 0.5 ** enCell.n, 15);
    const labels = r.mcnemar.filter((m) => m.column === 'label' && m.p_exact !== null);
    // the other label cells have p = 1 (no flip, or one agree → agree change in zh)
    expect(labels.filter((m) => m !== cell).every((m) => m.p_exact === 1)).toBe(true);
    expect(cell.p_holm).toBeCloseTo(Math.min(1, labels.length * cell.p_exact!), 15);
    const zhLabel = r.mcnemar.find(
      (m) => m.model === 'm1' && m.language === 'zh' && m.column === 'label',
    )!;
    // the two non-answers have no label on B's side: left out of the table, counted
    expect(zhLabel).toMatchObject({ excluded: 2, b: 0, c: 0 });
    const zhOutcome = r.mcnemar.find(
      (m) => m.model === 'm1' && m.language === 'zh' && m.column === 'outcome',
    )!;
    expect(zhOutcome).toMatchObject({ b: 2, c: 0, p_exact: 0.5 });
  });

  it('refuses two different bundles, naming both digests', async () => {
    const other = path.join(dir, 'other');
    await cp(scoresB, other, { recursive: true });
    const file = path.join(other, 'score.json');
    const h = JSON.parse(await readFile(file, 'utf8'));
    h.bundle.digest = 'f'.repeat(64);
    await writeFile(file, JSON.stringify(h));
    const run = await runCli(['compare', scoresA, other, '--json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('E_COMPARE_BUNDLE');
    expect(run.stderr).toContain(fx.digest);
    expect(run.stderr).toContain('f'.repeat(64));
  });

  it('refuses a scores file changed after scoring', async () => {
    const other = path.join(dir, 'edited');
    await cp(scoresB, other, { recursive: true });
    await writeFile(path.join(other, 'trials.csv'), 'trial,model\n');
    const run = await runCli(['compare', scoresA, other]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('E_COMPARE_SCORES');
  });

  it('--json carries changed, transitions and mcnemar; --out writes the tables, same bytes twice', async () => {
    const out = path.join(dir, 'cmp');
    const run = await runCli(['compare', scoresA, scoresB, '--json', '--out', out]);
    expect(run.code).toBe(0);
    const j = run.json();
    expect(j.changed).toHaveLength(edited.size);
    expect(j.transitions.length).toBeGreaterThan(0);
    expect(j.mcnemar.length).toBeGreaterThan(0);
    const changedCsv = await readFile(path.join(out, 'changed.csv'), 'utf8');
    expect(changedCsv.trim().split('\n')).toHaveLength(edited.size + 1);
    expect(await readFile(path.join(out, 'unpaired.csv'), 'utf8')).toContain(removed.trial_id);
    const first = await readFile(path.join(out, 'compare.json'));
    expect((await runCli(['compare', scoresA, scoresB, '--out', out])).code).toBe(0);
    expect(await readFile(path.join(out, 'compare.json'))).toEqual(first);
  });

  it('report --compare adds "What changed" from the same comparison', async () => {
    const out = path.join(dir, 'report');
    const run = await runCli(['report', scoresA, '--compare', scoresB, '--out', out, '--json']);
    expect(run.code).toBe(0);
    expect(run.json().sections).toContain('what-changed');
    const r = await compareScores(scoresA, scoresB);
    const mc = await readFile(path.join(out, 'tables', 'what-changed-mcnemar.csv'), 'utf8');
    expect(mc.trim().split('\n')).toHaveLength(r.mcnemar.length + 1);
    const moved = await readFile(path.join(out, 'tables', 'what-changed-transitions.csv'), 'utf8');
    expect(moved.trim().split('\n')).toHaveLength(
      r.transitions.filter((t) => t.from !== t.to).length + 1,
    );
    const html = await readFile(path.join(out, 'index.html'), 'utf8');
    expect(html).toContain('What changed');
    expect(html).not.toContain(dir);
    // report.json names both score.json files, each with the sha256 of the bytes read
    const inputs = JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8')).inputs;
    const header = async (d: string) => ({
      file: path.relative(out, path.join(d, 'score.json')).split(path.sep).join('/'),
      sha256: sha256(await readFile(path.join(d, 'score.json'))),
    });
    expect(inputs.slice(0, 2)).toEqual([await header(scoresA), await header(scoresB)]);
    const plain = await runCli(['report', scoresA, '--out', path.join(dir, 'report-a'), '--json']);
    expect(plain.json().sections).not.toContain('what-changed');
  });
});
