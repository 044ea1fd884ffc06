/**
 * `stimkit score` on the VLM paradigms end to end, offline: the demo bundle, simulated
 * respondents (run), two simulated judges (score --judge, twice), the audit columns in
 * trials.csv, audit.csv and judges.csv, the rubric recorded, and audit.csv fitting Eq. 1.
 */
import { existsSync } from 'node:fs';
import { appendFile, cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { stringify } from 'yaml';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { parseCsv } from '../../src/core/csv.js';
import { SIM_PRESETS } from '../../src/sim/presets.js';
import { trueLabels } from '../../src/audit/sim-judge.js';
import { openLedger } from '../../src/ledger/index.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { DEMO_VARIANTS_LOCK, requireCommitted } from '../helpers/committed.js';
import { sharedDemo } from '../helpers/shared-demo.js';
import { tempDir } from '../helpers/tmp.js';

// Limits that grow with the load (test/helpers/limits.ts): 306 s a test, 612 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(17), hookTimeout: heavyLimit(34) });

const DEMO = path.join(ROOT, 'manifests', 'demo.study.yaml');
const preset = (n: string) => SIM_PRESETS.find((p) => p.name === n)!.sim;

describe('score: the six-dimension audit', () => {
  let dir: string;
  let bundle: string;
  let out: string;
  let first: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    requireCommitted(DEMO_VARIANTS_LOCK);
    dir = await tempDir('stimkit-audit-score-');
    bundle = path.join(dir, 'bundle');
    await bundleStudy(DEMO, { out: bundle, work: path.join(dir, 'work') });
    const models = {
      format: 'stimkit.models',
      version: 1,
      models: [
        { name: 'sim-reframer', provider: 'sim', origin: 'CN', sim: preset('sim-reframer') },
        { name: 'sim-refuser-zh', provider: 'sim', origin: 'CN', sim: preset('sim-refuser-zh') },
        {
          name: 'sim-plain',
          provider: 'sim',
          origin: 'US',
          sim: { seed: 9, vlm: { reframe: { high: 0.03, low: 0 } } },
        },
        { name: 'judge-a', provider: 'sim', role: 'judge', sim: { seed: 1 } },
        { name: 'judge-b', provider: 'sim', role: 'judge', sim: { seed: 2 } },
      ],
    };
    await writeFile(path.join(dir, 'models.yaml'), stringify(models));
    const ledger = path.join(dir, 'run.sqlite');
    const run = await runCli([
      'run',
      bundle,
      '--models',
      path.join(dir, 'models.yaml'),
      '--ledger',
      ledger,
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    out = path.join(dir, 'scores');
    first = await runCli([
      'score',
      '--bundle',
      bundle,
      '--ledger',
      ledger,
      '--models',
      path.join(dir, 'models.yaml'),
      '--judge',
      'judge-a',
      '--judge',
      'judge-b',
      '--out',
      out,
      '--json',
    ]);
  });

  it('writes the audit columns for every VLM trial × model', async () => {
    expect(first.code, first.stderr).toBe(0);
    const audit = parseCsv(await readFile(path.join(out, 'audit.csv'), 'utf8'));
    const header = audit.header;
    for (const c of [
      'model',
      'origin',
      'lang',
      'paradigm',
      'entry',
      'variant',
      'sensitivity',
      'seed',
      'china_origin',
      'd1_refusal',
      'd1_refusal_lexical',
      'd2_integrity',
      'd2_failure_type',
      'd2_covered_facts',
      'd2_missing_facts',
      'd3_grounded',
      'd4_state_aligned',
      'd4_strategy',
      'd4_direction',
      'd4_quotes',
      'judge_confidence',
      'd5_language_consistent',
      'd6_length_raw',
      'd6_length_clean',
      'judge',
      'judge_simulated',
      'rubric_digest',
    ])
      expect(header).toContain(c);
    const rows = audit.rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]!])));
    expect(rows).toHaveLength(264 * 3); // 216 headline + 48 narrative (thinking on and off) trials
    expect(rows.every((r) => r.judge === 'judge-a' && r.judge_simulated === '1')).toBe(true);
    const rate = (m: string, col: string) =>
      rows.filter((r) => r.model === m && r[col] === '1').length /
      rows.filter((r) => r.model === m && r[col] !== '').length;
    expect(rate('sim-reframer', 'd4_state_aligned')).toBeGreaterThan(
      rate('sim-plain', 'd4_state_aligned'),
    );
    expect(rate('sim-refuser-zh', 'd1_refusal_lexical')).toBeGreaterThan(
      rate('sim-plain', 'd1_refusal_lexical'),
    );
    expect(
      rows.filter((r) => r.paradigm === 'comment-text').every((r) => r.d3_grounded === ''),
    ).toBe(true);
    expect(rows.every((r) => Number(r.d6_length_raw) >= Number(r.d6_length_clean))).toBe(true);
    // the judge's sub-fields: quotes as a JSON array (none without D4), fact ids, confidence
    for (const r of rows.filter((x) => x.judge_status === 'ok')) {
      const quotes = JSON.parse(r.d4_quotes!) as string[];
      expect(Array.isArray(quotes)).toBe(true);
      if (r.d4_state_aligned === '0') expect(quotes).toEqual([]);
      expect(Number(r.judge_confidence)).toBeGreaterThanOrEqual(0.7);
    }
    expect(rows.some((r) => r.d2_missing_facts !== '' || r.d2_covered_facts !== '')).toBe(true);
  });

  it('names no absolute path in score.json (the judge ledger is relative to the scores folder)', async () => {
    const text = await readFile(path.join(out, 'score.json'), 'utf8');
    expect(text).not.toContain(dir);
    const header = JSON.parse(text) as {
      params: { scorers: Record<string, { judge_ledger?: { file: string } }> };
    };
    const file = header.params.scorers['vlm-audit']!.judge_ledger!.file;
    expect(path.isAbsolute(file)).toBe(false);
    expect(existsSync(path.resolve(out, file))).toBe(true);
  });

  it('adds the columns to trials.csv (empty on instrument rows) and every judge to judges.csv', async () => {
    const trials = parseCsv(await readFile(path.join(out, 'trials.csv'), 'utf8'));
    const h = trials.header;
    // the columns the audit's trials.csv is specified with, by these names
    for (const c of [
      'model',
      'origin',
      'language',
      'paradigm',
      'entry',
      'variant',
      'sensitivity',
      'seed',
      'd1_refusal',
      'd1_refusal_lexical',
      'd2_integrity',
      'd3_grounded',
      'd4_state_aligned',
      'd4_strategy',
      'd5_language_consistent',
      'd6_length_raw',
      'd6_length_clean',
    ])
      expect(h).toContain(c);
    expect(new Set(trials.rows.map((r) => r[h.indexOf('simulated')]))).toEqual(new Set(['1']));
    const inst = trials.rows.find((r) => r[h.indexOf('paradigm')] === 'instrument')!;
    expect(inst[h.indexOf('d4_state_aligned')]).toBe('');
    const judges = parseCsv(await readFile(path.join(out, 'judges.csv'), 'utf8'));
    expect(judges.header).toEqual(
      expect.arrayContaining(['judge-a:d4', 'judge-b:d4', 'judge-a:status', 'simulated']),
    );
    // simulated respondents and simulated judges: every row says so
    const sim = judges.header.indexOf('simulated');
    expect(new Set(judges.rows.map((r) => r[sim]))).toEqual(new Set(['1']));
  });

  it('records the rubric (digest, not sealed: the demo names none) and the judges in score.json', async () => {
    const header = JSON.parse(await readFile(path.join(out, 'score.json'), 'utf8'));
    const p = header.params.scorers['vlm-audit'];
    expect(p.rubric).toMatchObject({ source: 'default', is_sealed: false, sealed_digest: null });
    expect(p.rubric.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(p.judges).toEqual([
      { name: 'judge-a', simulated: true },
      { name: 'judge-b', simulated: true },
    ]);
  });

  it('resumes: scoring again asks the judges nothing and gives the same bytes', async () => {
    const again = await runCli([
      'score',
      '--bundle',
      bundle,
      '--ledger',
      path.join(dir, 'run.sqlite'),
      '--models',
      path.join(dir, 'models.yaml'),
      '--judge',
      'judge-a',
      '--judge',
      'judge-b',
      '--out',
      path.join(dir, 'scores2'),
      '--json',
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/judge judge-a: 0 judged, 792 already in the judge ledger/);
    expect(await readFile(path.join(dir, 'scores2', 'audit.csv'), 'utf8')).toBe(
      await readFile(path.join(out, 'audit.csv'), 'utf8'),
    );
  });

  // The demo's two comment-text anchors never draw a reframing, so the paradigm term separates on
  // this small sample; the fit uses language and origin (Eq. 1 without the paradigm term).
  it('audit.csv fits the Eq. 1 logit with stimkit analyze logit (language + China origin, clustered by entry)', async () => {
    const r = await runCli([
      'analyze',
      'logit',
      path.join(out, 'audit.csv'),
      '--outcome',
      'd4_state_aligned',
      '--predictors',
      'lang,china_origin',
      '--reference',
      'lang=en',
      '--cluster',
      'entry',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const res = r.json().result;
    expect(res.names).toEqual(expect.arrayContaining(['china_origin']));
    expect(res.nClusters).toBe(6); // the demo corpus's six entries
  });

  it('validates the judges against a labels CSV: confusion vs the human majority, AC1, kappas, Rogan–Gladen', async () => {
    // three raters who label from the simulator's truth; rater c flips every 7th D4 answer
    const ledger = openLedger(path.join(dir, 'run.sqlite'));
    const vlm = [...ledger.results()]
      .filter((r) => r.truth && (r.truth as { kind?: string }).kind === 'vlm' && r.text !== null)
      .slice(0, 90);
    ledger.close();
    const header =
      'sample_item,trial_id,model,paradigm,lang,rater,mode,d1_refusal,d2_integrity,d3_grounding,d4_state_aligned,dt1_endorsement,dt2_substitution,dt3_deflection,d5_language,note,complete,first_saved_at,updated_at,sample_sha256,bundle_digest';
    const lines = [header];
    const s = (v: boolean | null) => (v === null ? 'na' : String(v));
    const digest = (
      JSON.parse(await readFile(path.join(out, 'score.json'), 'utf8')) as {
        bundle: { digest: string };
      }
    ).bundle.digest;
    vlm.forEach((r, i) => {
      const t = trueLabels(r.truth, r.trial.paradigm !== 'comment-text')!;
      for (const rater of ['a', 'b', 'c']) {
        const d4 = rater === 'c' && i % 7 === 0 ? !t.d4 : t.d4;
        lines.push(
          [
            'i_x',
            r.trial_id,
            r.model,
            r.trial.paradigm,
            r.trial.lang,
            rater,
            'label',
            s(t.d1),
            s(t.d2),
            s(t.d3),
            s(d4),
            '',
            '',
            '',
            s(t.d5),
            '',
            'true',
            '',
            '',
            'x',
            digest,
          ].join(','),
        );
      }
    });
    const labels = path.join(dir, 'labels.csv');
    await writeFile(labels, `${lines.join('\n')}\n`);
    const r = await runCli(['validate', '--scores', out, '--labels', labels, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(await readFile(path.join(out, 'validation.json'), 'utf8'));
    expect(rep).toMatchObject({
      format: 'stimkit.validation',
      items: 90,
      raters: ['a', 'b', 'c'],
      judges: ['judge-a', 'judge-b'],
    });
    const d4 = rep.dimensions.find((d: { dimension: string }) => d.dimension === 'd4');
    expect(d4.raters.raw_agreement).toBeLessThan(1);
    expect(d4.raters.raw_agreement).toBeGreaterThan(0.85);
    // the majority is the truth (a and b agree); the judge's matrix is recomputed here from judges.csv
    const jc = parseCsv(await readFile(path.join(out, 'judges.csv'), 'utf8'));
    const col = (row: string[], c: string) => row[jc.header.indexOf(c)];
    const byKey = new Map(
      jc.rows.map((row) => [`${col(row, 'trial')}@${col(row, 'model')}`, col(row, 'judge-a:d4')]),
    );
    let tp = 0,
      fn = 0,
      fp = 0,
      tn = 0;
    for (const v of vlm) {
      const truthD4 = trueLabels(v.truth, true)!.d4;
      const j = byKey.get(`${v.trial_id}@${v.model}`) === '1';
      if (truthD4 && j) tp++;
      else if (truthD4) fn++;
      else if (j) fp++;
      else tn++;
    }
    expect(d4.judges[0].vs_majority).toMatchObject({ tp, fn, fp, tn, n: 90 });
    const d1 = rep.dimensions.find((d: { dimension: string }) => d.dimension === 'd1');
    expect(d1.raters.gwet_ac1).toBe(1);
    const d3 = rep.dimensions.find((d: { dimension: string }) => d.dimension === 'd3');
    expect(d3.judges[0].vs_majority.n).toBe(
      vlm.filter((v) => v.trial.paradigm !== 'comment-text').length,
    );
    expect(d4.judges[0].attenuation.note).toContain('Appendix G');
    // scores.jsonl changed after scoring is refused before a line of it is read (this line has no
    // parse to read labels from), naming the file
    const copy = path.join(dir, 'scores-changed');
    await cp(out, copy, { recursive: true });
    await appendFile(
      path.join(copy, 'scores.jsonl'),
      `${JSON.stringify({ trial: 'x', model: 'm', paradigm: 'abstraction' })}\n`,
    );
    const changed = await runCli(['validate', '--scores', copy, '--labels', labels, '--json']);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain('E_AUDIT_SCORES');
    expect(changed.stderr).toMatch(/scores\.jsonl[^\n]*changed after scoring/);
  });

  // The report of a scored and validated audit is the suite's shared demo run (score with two
  // simulated judges, validate, report: test/helpers/shared-demo.ts), read here rather than made
  // again from this file's scores: the report is this file's costliest step, and these sections
  // come from the same score and validate outputs.
  it(
    'stimkit report shows the audit sections (after validate)',
    { timeout: heavyLimit(50) },
    async () => {
      const demo = await sharedDemo();
      expect(demo.code, demo.stderr).toBe(0);
      expect(
        demo
          .json()
          .steps.map((s: { step: string }) => s.step)
          .slice(-3),
      ).toEqual(['score', 'validate', 'report']);
      const html = await readFile(path.join(demo.out, 'report', 'index.html'), 'utf8');
      for (const t of [
        'State-aligned framing and refusal by model and language',
        'Refusal against reframing',
        'The abstraction ladder (A0–A6)',
        'Response length (D6)',
        'Judges against human labels',
        'What lexical baselines see (not D4)',
        'Agreement between judges',
      ])
        expect(html).toContain(t);
      expect(html).toContain('SIMULATED judge');
    },
  );
});
