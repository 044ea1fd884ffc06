// `stimkit demo`, the main job: the whole pipeline on the demo corpus, offline, ending with a
// sealed and verified bundle whose digest it prints. (About half a minute: A6 runs the network.)
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

describe('stimkit demo', () => {
  it('runs ingest, variants, bundle and verify, and prints the digest', async () => {
    const out = path.join(await tempDir('stimkit-demo-'), 'demo');
    const run = await runCli(['demo', '--out', out, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const j = run.json();
    expect(j.steps.map((s: { step: string; ok: boolean }) => `${s.step}:${s.ok}`)).toEqual(['ingest:true', 'variants:true', 'bundle:true', 'verify:true', 'run:true', 'score:true', 'report:true']);
    expect(j.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(run.stderr).toContain(`bundle digest: ${j.digest}`);
    expect(await readdir(path.join(out, 'variants'))).toContain('contact-sheet.png');
    expect(await readdir(path.join(out, 'bundle'))).toEqual(expect.arrayContaining(['bagit.txt', 'manifest-sha256.txt', 'data']));
    // The bundle step reports the same digest the demo prints.
    expect(j.steps[2].summary.digest).toBe(j.digest);
    // The run step: every demo trial for each simulated respondent, recorded in the ledger.
    const ran = j.steps[4].summary;
    expect(ran.digest).toBe(j.digest);
    expect(ran.models.map((m: { model: string; done: number }) => [m.model, m.done])).toEqual([
      ['sim-acquiescer', 112],
      ['sim-convinced', 112],
      ['sim-refuser-zh', 240],
      ['sim-reframer', 240],
    ]);
    const sims = Object.fromEntries(ran.simulated.map((m: { model: string; by_lang: unknown }) => [m.model, m.by_lang]));
    // The refuser refuses more in zh than in en; the reframer reframes and rarely refuses.
    expect(sims['sim-refuser-zh'].zh.refused).toBeGreaterThan(sims['sim-refuser-zh'].en.refused);
    expect(sims['sim-reframer'].zh.reframed).toBeGreaterThan(0);
    expect(run.stderr).toContain('sim-convinced: 112 trials');
    expect(await readdir(out)).toContain('ledger.sqlite');
    // score and report: the six-dimension audit by the simulated judge, and its charts
    expect(j.steps[5].summary.judges).toEqual([expect.objectContaining({ judge: 'sim-judge', provider: 'sim', judged: 480, failed: 0 })]);
    expect(j.steps[6].summary.sections).toEqual(expect.arrayContaining(['audit-rates', 'audit-refusal-vs-reframing', 'audit-ladder', 'audit-length', 'audit-baselines']));
    expect(j.steps[6].summary.simulated).toBe(true);
  }, 240_000);
});
