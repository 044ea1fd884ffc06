/**
 * The simulated judge: labels from recorded truth with set sensitivity and specificity, marked
 * simulated; recovery of the true rate through the judge and the Rogan–Gladen correction.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { correctPrevalence, roganGladen } from '../../src/audit/attenuation.js';
import { confusion } from '../../src/audit/agreement.js';
import { readJudgeLabels } from '../../src/audit/judge-read.js';
import type { JudgeTarget } from '../../src/audit/judge-request.js';
import { judgeCounts } from '../../src/audit/judge-calls.js';
import { judgeRunLabel, runJudge } from '../../src/audit/judge-run.js';
import { DEFAULT_RUBRIC_FILE, loadRubric } from '../../src/study/rubric.js';
import { SimJudgeParams, simJudgeLabel, trueLabels, uniform } from '../../src/audit/sim-judge.js';
import { ModelSpec } from '../../src/models/schema.js';
import { tempDir } from '../helpers/tmp.js';

/** The observed rate of a perfectly specific judge with sensitivity s: Appendix G's p̂ = s·π + (1 − σ)(1 − π). */
function observedRate(trueRate: number, sensitivity: number, specificity: number): number {
  return sensitivity * trueRate + (1 - specificity) * (1 - trueRate);
}

/**
 * Appendix G, Eq. 4: the odds ratio a judge with sensitivity s (and σ ≈ 1) reports between two
 * cells with true rates π1, π2; it approaches the true odds ratio when both rates are small.
 */
function attenuatedOddsRatio(
  pi1: number,
  pi2: number,
  sensitivity: number,
): { observed: number; truth: number } {
  const odds = (p: number) => p / (1 - p);
  return {
    observed: odds(sensitivity * pi1) / odds(sensitivity * pi2),
    truth: odds(pi1) / odds(pi2),
  };
}

const N = 3000;
const TRUE_D4 = 0.2;
const TRUE_D1 = 0.08;
/** A simulated VLM truth, as the simulator records it, with known rates. */
function truth(i: number): Record<string, unknown> {
  const refused = uniform('refuse', i) < TRUE_D1;
  const reframed = !refused && uniform('reframe', i) < TRUE_D4 / (1 - TRUE_D1);
  return {
    kind: 'vlm',
    simulated: true,
    refused,
    refusal_type: refused ? 'policy' : null,
    reframed,
    facts_covered: refused ? [] : ['f1'],
    facts_missing: refused ? ['f1', 'f2'] : uniform('facts', i) < 0.5 ? [] : ['f2'],
    markers_used: reframed ? ['vocational training'] : [],
    language: 'zh',
    prompt_lang: uniform('drift', i) < 0.02 ? 'en' : 'zh',
  };
}
const response = (t: Record<string, unknown>) =>
  t.reframed ? 'It shows a vocational training centre with vocational training.' : 'A photo.';

describe('the sim judge', () => {
  const params = SimJudgeParams.parse({
    seed: 5,
    sensitivity: { d4: 0.44 },
    specificity: { d4: 0.981 },
  });
  const rows = Array.from({ length: N }, (_, i) => {
    const t = truth(i);
    return {
      t,
      out: simJudgeLabel(params, 'sim-judge', 'resp', `t_${i}`, t, response(t), i % 4 !== 0)!,
    };
  });

  it('misclassifies at the set sensitivity and specificity, per dimension', () => {
    const c = confusion(
      rows.map((r) => r.out.label.state_aligned),
      rows.map((r) => r.out.truth.d4),
    );
    expect(c.recall!).toBeGreaterThan(0.44 - 0.06);
    expect(c.recall!).toBeLessThan(0.44 + 0.06);
    expect(c.specificity!).toBeGreaterThan(0.981 - 0.01);
    const d1 = confusion(
      rows.map((r) => r.out.label.explicit_refusal),
      rows.map((r) => r.out.truth.d1),
    );
    expect(Math.abs(d1.recall! - 7 / 11)).toBeLessThan(0.1); // the paper's default for D1 (n ≈ 240 refusals: 3 SE)
    expect(d1.fp).toBe(0); // specificity 1
  });

  it('gives D3 null on text trials and labels consistent with the rubric', () => {
    expect(
      rows.filter((_, i) => i % 4 === 0).every((r) => r.out.label.visual_grounded === null),
    ).toBe(true);
    for (const { out } of rows.slice(0, 200)) {
      expect(out.label.explicit_refusal === (out.label.refusal_reason !== null)).toBe(true);
      expect(out.label.state_aligned === (out.label.ccp_direction === 'systematic')).toBe(true);
    }
  });

  it('is deterministic and needs a VLM truth', () => {
    const t = truth(1);
    expect(simJudgeLabel(params, 'j', 'm', 't', t, 'x', true)).toEqual(
      simJudgeLabel(params, 'j', 'm', 't', t, 'x', true),
    );
    expect(trueLabels({ kind: 'instrument' }, true)).toBeNull();
  });

  it('recovers the true D4 rate through Rogan–Gladen; the raw judged rate is attenuated (Appendix G)', () => {
    const x = rows.filter((r) => r.out.label.state_aligned).length;
    const trueRate = rows.filter((r) => r.out.truth.d4).length / N;
    expect(Math.abs(trueRate - TRUE_D4)).toBeLessThan(0.02);
    const c = correctPrevalence(x, N, { value: 0.44 }, { value: 0.981 });
    expect(c.observed.upper).toBeLessThan(trueRate); // the naive rate is a lower bound
    expect(c.lower).toBeLessThan(trueRate);
    expect(c.upper).toBeGreaterThan(trueRate);
    expect(Math.abs(c.corrected - trueRate)).toBeLessThan(0.04);
    // with the accuracies estimated on a validation sample (Figure A1 counts), the interval widens
    const d = correctPrevalence(x, N, { value: 18 / 41, n: 41 }, { value: 156 / 159, n: 159 });
    expect(d.method).toBe('delta');
    expect(d.upper - d.lower).toBeGreaterThan(c.upper - c.lower);
    expect(d.lower).toBeLessThan(trueRate);
    expect(d.upper).toBeGreaterThan(trueRate);
  });

  it('Eq. 3 and Rogan–Gladen are inverses; odds ratios survive attenuation when rates are small (Eq. 5)', () => {
    expect(roganGladen(observedRate(0.3, 0.6, 0.95), 0.6, 0.95)).toBeCloseTo(0.3, 12);
    const small = attenuatedOddsRatio(0.04, 0.01, 0.44);
    expect(small.observed / small.truth).toBeGreaterThan(0.95);
    const large = attenuatedOddsRatio(0.6, 0.2, 0.44);
    expect(large.observed / large.truth).toBeLessThan(0.8);
    expect(() => roganGladen(0.1, 0.4, 0.5)).toThrow(/better than chance/);
  });

  it("takes its accuracy from the models file's sim.judge block", async () => {
    const dir = await tempDir('stimkit-sim-judge-');
    const r0 = await loadRubric(DEFAULT_RUBRIC_FILE);
    const rubric = {
      ...r0,
      source: 'default' as const,
      sealed_digest: null,
      is_sealed: false,
      file: null,
    };
    const targets: JudgeTarget[] = rows.slice(0, 200).map((r, i) => ({
      trialId: `t_${i.toString(16).padStart(24, '0')}`,
      model: 'resp',
      imageSha256: 'b'.repeat(64),
      truth: r.t,
      input: {
        trial_id: `t_${i}`,
        entry: null,
        prompt: { text: 'p', lang: 'zh', paradigm: 'describe' },
        response: response(r.t),
      },
    }));
    const perfect = { d1: 1, d2: 1, d3: 1, d4: 1, d5: 1 };
    const judge = ModelSpec.parse({
      name: 'sim-judge',
      provider: 'sim',
      role: 'judge',
      sim: { seed: 5, judge: { sensitivity: perfect, specificity: perfect } },
    });
    const ledger = path.join(dir, 'judge.sqlite');
    await runJudge({
      ledger,
      bundleDir: dir,
      digest: 'c'.repeat(64),
      studyId: null,
      respondentRun: 'main',
      judge,
      rubric,
      targets,
    });
    const byKey = new Map(targets.map((t) => [`${t.trialId}@resp`, t]));
    const labels = readJudgeLabels(
      ledger,
      judgeRunLabel('main', rubric.digest),
      'sim-judge',
      (trialId) => ({
        response: byKey.get(`${trialId}@resp`)!.input.response,
        image: true,
        threshold: 0.7,
      }),
    );
    const ok = [...labels.values()].filter((l) => l.parsed.status === 'ok');
    expect(ok).toHaveLength(200);
    // A perfect judge reproduces the recorded truth of D4 on every response.
    for (const l of ok) {
      const truth = trueLabels(byKey.get(`${l.trialId}@resp`)!.truth, true)!;
      expect([l.parsed.label!.explicit_refusal, l.parsed.label!.state_aligned]).toEqual([
        truth.d1,
        truth.d4,
      ]);
    }
    expect(ok.some((l) => l.parsed.label!.state_aligned)).toBe(true);
    expect(() =>
      ModelSpec.parse({
        name: 'j',
        provider: 'sim',
        role: 'judge',
        sim: { judge: { sensitivity: { d4: 1.5 } } },
      }),
    ).toThrow();
  });

  it('refuses up front to judge responses without simulator truth, and counts the reason when only some lack it', async () => {
    const dir = await tempDir('stimkit-sim-judge-');
    const r0 = await loadRubric(DEFAULT_RUBRIC_FILE);
    const rubric = {
      ...r0,
      source: 'default' as const,
      sealed_digest: null,
      is_sealed: false,
      file: null,
    };
    const make = (withTruth: (i: number) => boolean): JudgeTarget[] =>
      rows.slice(0, 6).map((r, i) => ({
        trialId: `t_${i.toString(16).padStart(24, '0')}`,
        model: 'resp',
        imageSha256: 'b'.repeat(64),
        truth: withTruth(i) ? r.t : null,
        input: {
          trial_id: `t_${i}`,
          entry: null,
          prompt: { text: 'p', lang: 'zh', paradigm: 'describe' },
          response: response(r.t),
        },
      }));
    const judge = ModelSpec.parse({
      name: 'sim-judge',
      provider: 'sim',
      role: 'judge',
      sim: { seed: 5 },
    });
    const ledger = path.join(dir, 'judge.sqlite');
    const base = {
      ledger,
      bundleDir: dir,
      digest: 'c'.repeat(64),
      studyId: null,
      respondentRun: 'main',
      judge,
      rubric,
    };
    await expect(runJudge({ ...base, targets: make(() => false) })).rejects.toMatchObject({
      code: 'E_AUDIT_JUDGE_SIM_TRUTH',
      message: expect.stringContaining('can only label responses of simulated respondents'),
      problems: [expect.objectContaining({ got: '6 response(s) without simulator truth' })],
    });
    const some = await runJudge({ ...base, targets: make((i) => i < 4) });
    expect(some).toMatchObject({ judged: 4, failed: 2, failures: { no_truth: 2 } });
    expect(judgeCounts(some)).toBe(
      '4 judged, 0 already in the judge ledger, 2 failed (no simulator truth: not a simulated respondent\u2019s response 2)',
    );
  });

  it('writes simulated labels into the judge ledger, read back valid and marked simulated', async () => {
    const dir = await tempDir('stimkit-sim-judge-');
    const ledger = path.join(dir, 'judge.sqlite');
    const r0 = await loadRubric(DEFAULT_RUBRIC_FILE);
    const rubric = {
      ...r0,
      source: 'default' as const,
      sealed_digest: null,
      is_sealed: false,
      file: null,
    };
    const targets: JudgeTarget[] = rows.slice(0, 300).map((r, i) => ({
      trialId: `t_${i.toString(16).padStart(24, '0')}`,
      model: 'resp',
      imageSha256: i % 4 === 0 ? null : 'b'.repeat(64),
      truth: r.t,
      input: {
        trial_id: `t_${i}`,
        entry: null,
        prompt: { text: 'p', lang: 'zh', paradigm: 'describe' },
        response: response(r.t),
      },
    }));
    targets.push({ ...targets[1]!, trialId: `t_${'f'.repeat(24)}`, truth: null });
    const judge = ModelSpec.parse({
      name: 'sim-judge',
      provider: 'sim',
      role: 'judge',
      sim: { seed: 5 },
    });
    const res = await runJudge({
      ledger,
      bundleDir: dir,
      digest: 'c'.repeat(64),
      studyId: null,
      respondentRun: 'main',
      judge,
      rubric,
      targets,
      simParams: { seed: 5, sensitivity: { d4: 0.44 }, specificity: { d4: 0.981 } },
    });
    expect(res).toMatchObject({ judged: 300, failed: 1 });
    const byKey = new Map(targets.map((t) => [`${t.trialId}@resp`, t]));
    const labels = readJudgeLabels(
      ledger,
      judgeRunLabel('main', rubric.digest),
      'sim-judge',
      (trialId) => {
        const t = byKey.get(`${trialId}@resp`)!;
        return { response: t.input.response, image: t.imageSha256 !== null, threshold: 0.7 };
      },
    );
    const ok = [...labels.values()].filter((l) => l.parsed.status === 'ok');
    expect(ok).toHaveLength(300);
    expect(ok.every((l) => l.simulated && l.parsed.flags.length === 0)).toBe(true);
    expect(labels.get(`t_${'f'.repeat(24)}@resp`)!.parsed.status).toBe('failed');
    // same labels as the pure function
    expect(ok[5]!.parsed.label).toEqual(
      simJudgeLabel(
        params,
        'sim-judge',
        'resp',
        ok[5]!.trialId,
        byKey.get(`${ok[5]!.trialId}@resp`)!.truth,
        byKey.get(`${ok[5]!.trialId}@resp`)!.input.response,
        byKey.get(`${ok[5]!.trialId}@resp`)!.imageSha256 !== null,
      )!.label,
    );
  });
});
