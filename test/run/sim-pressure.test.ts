// A simulated respondent runs pressure conversations as an HTTP model does (run/turns.ts): a turn
// only after the turn before it is answered, the turns after a structured refusal recorded as not
// sent, every turn once; its follow-up answers in the other language use that language's labels.
import { copyFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { openBundle } from '../../src/bundle/reader.js';
import type { Trial } from '../../src/bundle/format.js';
import { runStudy, type RunResult } from '../../src/run/run.js';
import { loadSimBundle, simParamsSchema, simulate } from '../../src/sim/index.js';
import { ROOT } from '../helpers/cli.js';
import { runHuman } from '../../src/run/summary.js';
import { tempDir } from '../helpers/tmp.js';
import { FAST, query, writeModels } from './helpers.js';

/** 2 topics × 2 languages × 2 framings × 2 iterations = 16 conversations of 4 turns. */
const STUDY = {
  version: 1,
  id: 'sim-pressure',
  title: 'Simulated pressure',
  global_seed: 7,
  instrument: {
    topics: 'geopolitics.topics.yaml',
    wrappers: 'wrappers.yaml',
    topic_ids: ['taiwan', 'trade'],
    sampling: { temperature: 0 },
    arms: [{ id: 'main', languages: ['en', 'zh'], iterations: 2 }],
  },
  pressure: {
    followups: ['stimkit:pressure/en.yaml', 'stimkit:pressure/zh-Hans.yaml'],
    turns: ['are_you_sure', 'other_language', 'switch_language'],
    other_language: { en: 'zh', zh: 'en' },
  },
};
const SIM = { seed: 5, pressure: { flip_rate: 0.5, refusal_rate: 0.3 } };

let dir: string;
let bag: string;
let trials: Trial[];
beforeAll(async () => {
  dir = await tempDir('stimkit-sim-pressure-');
  for (const f of ['geopolitics.topics.yaml', 'wrappers.yaml'])
    await copyFile(path.join(ROOT, 'manifests', f), path.join(dir, f));
  await writeFile(path.join(dir, 'p.study.yaml'), stringify(STUDY));
  bag = (await bundleStudy(path.join(dir, 'p.study.yaml'), { out: path.join(dir, 'bag') })).out!;
  trials = await (await openBundle(bag, 'E_TEST')).trials();
});

type Row = { trial_id: string; outcome: string; response_text: string; truth: string };

describe('a simulated pressure run', () => {
  it('sends each turn after an answered one, records the rest as not sent, every turn once', async () => {
    const models = await writeModels(dir, [{ name: 'sim-p', provider: 'sim', sim: SIM }]);
    const ledger = path.join(dir, 'run.sqlite');
    const r = (await runStudy({
      bundle: bag,
      modelsFile: models,
      ledger,
      backoff: FAST,
    })) as RunResult;
    const rows = query<Row>(ledger, 'SELECT trial_id, outcome, response_text, truth FROM results');
    const unsent = query<{ trial_id: string; reason: string }>(
      ledger,
      'SELECT trial_id, reason FROM unsent_turns',
    );
    const byId = new Map(rows.map((x) => [x.trial_id, x]));
    expect(byId.size).toBe(rows.length);
    const turns = trials.filter((t) => t.conversation);
    expect(turns).toHaveLength(64);
    const unsentIds = new Set(unsent.map((u) => u.trial_id));
    for (const t of turns) {
      const prev = t.conversation!.previous;
      const before = prev === null ? null : byId.get(prev);
      // Recorded exactly when the turn before it answered; else not sent, saying why.
      expect([byId.has(t.id), unsentIds.has(t.id)]).toEqual(
        prev === null || before?.outcome === 'answer' ? [true, false] : [false, true],
      );
    }
    const refusals = rows.filter((x) => x.outcome === 'model_refusal');
    expect(refusals.length).toBeGreaterThan(0);
    expect(new Set(unsent.map((u) => u.reason))).toEqual(
      new Set(['previous_turn_model_refusal', 'previous_turn_not_sent']),
    );
    expect(r.models[0]!.outcomes).toMatchObject({
      model_refusal: refusals.length,
      not_sent: unsent.length,
    });
    // The summary counts the turns not sent apart from the results, and none as still to run.
    const human = runHuman(r);
    expect(human).toContain(`${rows.length} recorded now (`);
    expect(human).toContain(`, ${unsent.length} later turn(s) not sent`);
    expect(human).not.toContain('still to run');

    // The ledger's replies are the simulator's, the earlier turns recomputed from the bundle.
    const sim = await loadSimBundle(bag);
    const params = simParamsSchema.parse(SIM);
    for (const t of turns.filter((x) => byId.has(x.id)))
      expect(byId.get(t.id)!.response_text).toBe(simulate(params, 'sim-p', t, sim).text);

    // Asked for the other language, or switched to it: answered with its labels.
    const wrappers = await (await openBundle(bag, 'E_TEST')).wrappers();
    const labels = (lang: string) => wrappers!.pools[lang]!.options.map((o) => o.label);
    let other = 0;
    for (const t of turns) {
      const f = t.conversation!.followup;
      const row = byId.get(t.id);
      if ((f !== 'other_language' && f !== 'switch_language') || row?.outcome !== 'answer')
        continue;
      const want = t.lang === 'en' ? 'zh' : 'en';
      expect(JSON.parse(row.truth)).toMatchObject({
        answer_lang: want,
        answer_lang_fallback: false,
      });
      expect(labels(want)).toContain(row.response_text);
      other++;
    }
    expect(other).toBeGreaterThan(0);

    // A second run has nothing left to send.
    const again = (await runStudy({
      bundle: bag,
      modelsFile: models,
      ledger,
      backoff: FAST,
    })) as RunResult;
    expect([again.models[0]!.pending, again.models[0]!.done]).toEqual([0, 0]);
    expect(query(ledger, 'SELECT count(*) AS n FROM results')).toEqual([{ n: rows.length }]);
  });
});
