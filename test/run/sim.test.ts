// Simulated respondents through `stimkit run`: the demo bundle against manifests/demo.models.yaml.
// Every response is marked simulated with its truth; two runs give the same responses
// (deterministic by seed and trial id); a rerun sends nothing; a changed sim block is a changed
// request.
import path from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { parse, stringify } from 'yaml';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { openLedger } from '../../src/ledger/read.js';
import { runStudy, type RunResult } from '../../src/run/run.js';
import { ROOT } from '../helpers/cli.js';
import { DEMO_VARIANTS_LOCK, requireCommitted } from '../helpers/committed.js';
import { tempDir } from '../helpers/tmp.js';
import { bundleTrials } from '../score/fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 126 s a test, 306 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(7), hookTimeout: heavyLimit(17) });

const MODELS = path.join(ROOT, 'manifests', 'demo.models.yaml');

describe('simulated respondents on the demo bundle', () => {
  let dir: string;
  let bag: string;
  beforeAll(async () => {
    requireCommitted(DEMO_VARIANTS_LOCK);
    dir = await tempDir('stimkit-run-sim-');
    const r = await bundleStudy(path.join(ROOT, 'manifests', 'demo.study.yaml'), {
      out: path.join(dir, 'bag'),
      work: path.join(dir, 'work'),
    });
    bag = r.out!;
  });

  const read = (ledger: string) => {
    const l = openLedger(ledger);
    const rows = [...l.results()].map((r) => ({
      model: r.model,
      trial: r.trial_id,
      text: r.text,
      finish: r.finish_reason,
      outcome: r.outcome,
      simulated: r.simulated,
      truth: r.truth,
      usage: r.usage,
      sha: r.request_sha256,
      reasoning: [r.reasoning, r.reasoning_visibility, r.reasoning_tokens],
    }));
    l.close();
    return rows;
  };

  it('records every demo trial for each respondent, simulated, with its truth, the same on every run', async () => {
    const a = path.join(dir, 'a.sqlite');
    const first = (await runStudy({ bundle: bag, modelsFile: MODELS, ledger: a })) as RunResult;
    expect(first.models.map((m) => [m.model, m.done])).toEqual([
      ['sim-acquiescer', 224],
      ['sim-convinced', 220],
      ['sim-freetext', 224],
      ['sim-refuser-zh', 264],
      ['sim-reframer', 264],
      ['sim-candid', 264],
    ]);
    const rows = read(a);
    // per instrument respondent: 112 instrument trials + 112 pressure turns, but sim-convinced's
    // 4 turns after its 3 declined follow-ups (not sent); per VLM respondent: 216 headline trials
    // + 24 narrative trials, each with thinking on and off
    expect(rows).toHaveLength(224 + 220 + 224 + 3 * (216 + 2 * 24));
    expect(rows.every((r) => r.simulated && r.truth !== null)).toBe(true);
    // A reasoning channel only where a respondent has a habit (sim-refuser-zh) and the trial
    // turns thinking on (the demo's 24 narrative trials with thinking on); absent elsewhere.
    const on = new Set(
      (await bundleTrials(bag)).filter((t) => t.sampling.thinking === true).map((t) => t.id),
    );
    expect(on.size).toBe(24);
    const pressure = new Set(
      (await bundleTrials(bag)).filter((t) => t.paradigm === 'pressure').map((t) => t.id),
    );
    expect(pressure.size).toBe(112);
    const reasons = (r: (typeof rows)[number]) => r.model === 'sim-refuser-zh' && on.has(r.trial);
    const shown = rows.filter(reasons).map((r) => String(r.reasoning[1]));
    expect(shown).toHaveLength(24);
    expect(shown.every((v) => v === 'full' || v === 'empty')).toBe(true);
    expect(rows.filter((r) => !reasons(r)).every((r) => r.reasoning.join() === ',absent,')).toBe(
      true,
    );
    expect(
      rows
        .filter((r) => r.model === 'sim-convinced')
        .every((r) => r.truth!.kind === (pressure.has(r.trial) ? 'pressure' : 'instrument')),
    ).toBe(true);
    expect(
      rows.filter((r) => r.model === 'sim-reframer').every((r) => r.truth!.kind === 'vlm'),
    ).toBe(true);

    // Another ledger, the models in another order: the same responses.
    const reversed = parse(await readFile(MODELS, 'utf8'));
    reversed.models.reverse();
    const rev = path.join(dir, 'reversed.models.yaml');
    await writeFile(rev, stringify(reversed));
    const b = path.join(dir, 'b.sqlite');
    await runStudy({ bundle: bag, modelsFile: rev, ledger: b });
    expect(read(b)).toEqual(rows);

    // A rerun has nothing left to do.
    const again = (await runStudy({ bundle: bag, modelsFile: MODELS, ledger: a })) as RunResult;
    expect(again.models.every((m) => m.pending === 0 && m.skipped === m.selected)).toBe(true);

    // Another seed is another respondent: refused as a changed request.
    const changed = parse(await readFile(MODELS, 'utf8'));
    changed.models[0].sim.seed = 99;
    const ch = path.join(dir, 'changed.models.yaml');
    await writeFile(ch, stringify(changed));
    await expect(runStudy({ bundle: bag, modelsFile: ch, ledger: a })).rejects.toMatchObject({
      code: 'E_RUN_REQUEST_CHANGED',
      message: expect.stringContaining('sim.seed: 1 → 99'),
    });
  });

  it('a reasoning habit changes only the reasoning channel, and only where the trial turns thinking on', async () => {
    const habit = path.join(dir, 'habit.sqlite');
    await runStudy({
      bundle: bag,
      modelsFile: MODELS,
      ledger: habit,
      modelNames: ['sim-refuser-zh'],
    });
    const models = parse(await readFile(MODELS, 'utf8'));
    const refuser = models.models.find((m: { name: string }) => m.name === 'sim-refuser-zh');
    delete refuser.sim.reasoning;
    const file = path.join(dir, 'plain.models.yaml');
    await writeFile(file, stringify(models));
    const plain = path.join(dir, 'plain.sqlite');
    await runStudy({
      bundle: bag,
      modelsFile: file,
      ledger: plain,
      modelNames: ['sim-refuser-zh'],
    });
    const on = new Set(
      (await bundleTrials(bag)).filter((t) => t.sampling.thinking === true).map((t) => t.id),
    );
    // The same rows but the request hash (the sim block is part of it) where thinking is off ...
    const strip = (rows: ReturnType<typeof read>) => rows.map(({ sha: _sha, ...r }) => r);
    const [withHabit, without] = [read(habit), read(plain)];
    const off = (rows: ReturnType<typeof read>) => strip(rows.filter((r) => !on.has(r.trial)));
    expect(off(withHabit)).toEqual(off(without));
    expect(off(withHabit)).toHaveLength(240);
    // ... and where it is on, the same answer with a reasoning channel beside it.
    const answer = (rows: ReturnType<typeof read>) =>
      rows
        .filter((r) => on.has(r.trial))
        .map(({ trial, text, outcome, finish, truth }) => {
          const { reasoning: _r, ...rest } = truth as Record<string, unknown>;
          return { trial, text, outcome, finish, truth: rest };
        });
    expect(answer(withHabit)).toEqual(answer(without));
    expect(answer(withHabit)).toHaveLength(24);
  });
});
