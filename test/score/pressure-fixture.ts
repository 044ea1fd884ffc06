/**
 * A tiny pressure study for the scoring tests: the shipped geopolitics topic `taiwan` (keyed US:
 * its affirmative is the plus pole, so the keying sign is +1 for the affirmative framing and −1
 * for the reverse), arm `main` in en and zh with one iteration, so 2 languages × 2 framings = 4
 * conversations of 4 turns: turn 1 the instrument item, then `are_you_sure`, `other_language`
 * and `switch_language`. The other language of en is zh (whose pool the bundle has) and of zh
 * is ug (whose pool it has not). Responses go into a ledger written by hand with the ledger's own
 * statements (results, unsent turns), as `stimkit run` records them.
 */
import { copyFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { bundleStudy } from '../../src/bundle/bundle.js';
import type { Trial } from '../../src/bundle/format.js';
import { openLedgerDb } from '../../src/ledger/open.js';
import { INSERT_RESULT, type ResultRow } from '../../src/ledger/result-row.js';
import { ensureRun, insertTrials, registerModel } from '../../src/ledger/runs.js';
import { recordUnsent } from '../../src/ledger/turns.js';
import { ROOT } from '../helpers/cli.js';
import { bundleTrials } from './fixture.js';
import { scoreToFolder } from '../../src/score/score.js';

const STUDY = {
  format: 'stimkit.study',
  version: 1,
  id: 'pressure-score-fixture',
  title: 'Pressure score fixture',
  global_seed: 11,
  instrument: {
    topics: 'geopolitics.topics.yaml',
    wrappers: 'wrappers.yaml',
    topic_ids: ['taiwan'],
    sampling: { temperature: 0 },
    arms: [{ id: 'main', languages: ['en', 'zh'], iterations: 1 }],
  },
  pressure: {
    followups: [
      'stimkit:pressure/en.yaml',
      'stimkit:pressure/zh-Hans.yaml',
      'stimkit:pressure/ug.yaml',
    ],
    turns: ['are_you_sure', 'other_language', 'switch_language'],
    other_language: { en: 'zh', zh: 'ug' },
  },
};

export interface PressureFixture {
  bundle: string;
  digest: string;
  trials: Trial[];
  /** The turn trial of the conversation in `lang` and `framing`, turn `turn`. */
  turn: (lang: string, framing: 'affirmative' | 'reverse', turn: number) => Trial;
}

/** Write and bundle the study in `dir`; `pressure: false` leaves the pressure block out. */
export async function pressureBundle(dir: string, pressure = true): Promise<PressureFixture> {
  for (const f of ['geopolitics.topics.yaml', 'wrappers.yaml'])
    await copyFile(path.join(ROOT, 'manifests', f), path.join(dir, f));
  const { pressure: block, ...rest } = STUDY;
  const file = path.join(dir, 'p.study.yaml');
  await writeFile(file, stringify(pressure ? { ...rest, pressure: block } : rest));
  const bundle = path.join(dir, pressure ? 'bundle' : 'bundle-plain');
  const r = await bundleStudy(file, { out: bundle });
  const trials = await bundleTrials(bundle);
  const turn = (lang: string, framing: string, n: number) =>
    trials.find(
      (t) =>
        t.paradigm === 'pressure' &&
        t.lang === lang &&
        t.framing === framing &&
        t.conversation!.turn === n,
    )!;
  return { bundle, digest: r.digest!, trials, turn };
}

/** A result to record: the trial, the outcome and the reply text (null: none). */
export interface HandResult {
  trial: Trial;
  outcome: string;
  text: string | null;
}

/** An unsent turn to record: the trial, and the turn before it with its outcome. */
export interface HandUnsent {
  trial: Trial;
  previous: Trial;
  previousOutcome: string;
  reason: string;
}

function resultRow(runId: number, digest: string, model: string, r: HandResult): ResultRow {
  return {
    run_id: runId,
    model,
    trial_id: r.trial.id,
    bundle_digest: digest,
    outcome: r.outcome,
    request_sha256: '0'.repeat(64),
    dropped: null,
    response_text: r.text,
    reasoning_text: null,
    finish_reason: r.outcome === 'answer' ? 'stop' : null,
    prompt_tokens: null,
    completion_tokens: null,
    total_tokens: null,
    usage: null,
    served_model: null,
    system_fingerprint: null,
    simulated: 0,
    truth: null,
    error_class: null,
    http_status: 200,
    error_body: null,
    attempts: 1,
    latency_ms: 1,
    finished_at: '2026-01-01T00:00:00.000Z',
    sent_images: null,
    cost_usd: null,
    route_provider: null,
    response_id: null,
    request_id: null,
    region: null,
    endpoint: null,
    reasoning_visibility: null,
    reasoning_tokens: null,
  };
}

/** Write a ledger whose run of `fx`'s bundle holds these results and unsent turns of `model`. */
export function handLedger(
  file: string,
  fx: PressureFixture,
  model: string,
  results: HandResult[],
  unsent: HandUnsent[],
): void {
  const db = openLedgerDb(file);
  try {
    const run = ensureRun(db, file, fx.digest, 'pressure-score-fixture');
    insertTrials(db, run.run_id, fx.trials);
    registerModel(db, file, run, model, 'openai', null, { origin: 'XX', vendor: 'hand' });
    const put = db.prepare(INSERT_RESULT);
    for (const r of results) put.run(resultRow(run.run_id, fx.digest, model, r));
    recordUnsent(
      db,
      run.run_id,
      model,
      unsent.map((u) => ({
        trial_id: u.trial.id,
        conversation_id: u.trial.conversation!.id,
        turn: u.trial.conversation!.turn,
        reason: u.reason,
        previous_trial_id: u.previous.id,
        previous_outcome: u.previousOutcome,
      })),
    );
  } finally {
    db.close();
  }
}

const FREE_ZH = '这个问题很复杂，需要从多个角度来看。';
const FREE_EN = 'This is a complex question with many sides to consider.';

/**
 * The scoring tests' study scored from a hand-written ledger of model m1: the conversations A–D
 * that test/score/pressure.test.ts works out by hand. Returns the fixture and the scores folder.
 */
export async function scoredPressure(
  dir: string,
): Promise<{ fx: PressureFixture; scores: string }> {
  const fx = await pressureBundle(dir);
  const t = fx.turn;
  const answer = (trial: ReturnType<typeof t>, text: string) => ({
    trial,
    outcome: 'answer',
    text,
  });
  const ledger = path.join(dir, 'run.ledger.sqlite');
  handLedger(
    ledger,
    fx,
    'm1',
    [
      answer(t('en', 'affirmative', 1), 'Agree'),
      answer(t('en', 'affirmative', 2), 'Answer: Agree'),
      answer(t('en', 'affirmative', 3), '强烈同意'),
      answer(t('en', 'affirmative', 4), '同意。'),
      answer(t('en', 'reverse', 1), 'Disagree'),
      answer(t('en', 'reverse', 2), 'Strongly agree'),
      answer(t('en', 'reverse', 3), FREE_EN),
      answer(t('en', 'reverse', 4), '不同意'),
      answer(t('zh', 'affirmative', 1), '同意'),
      { trial: t('zh', 'affirmative', 2), outcome: 'model_refusal', text: null },
      answer(t('zh', 'reverse', 1), FREE_ZH),
      answer(t('zh', 'reverse', 2), '强烈不同意'),
      answer(t('zh', 'reverse', 3), 'قوشۇلىمەن'),
    ],
    [
      {
        trial: t('zh', 'affirmative', 3),
        previous: t('zh', 'affirmative', 2),
        previousOutcome: 'model_refusal',
        reason: 'previous_turn_model_refusal',
      },
      {
        trial: t('zh', 'affirmative', 4),
        previous: t('zh', 'affirmative', 3),
        previousOutcome: 'not_sent',
        reason: 'previous_turn_not_sent',
      },
    ],
  );
  const scores = path.join(dir, 'scores');
  await scoreToFolder({
    bundle: fx.bundle,
    source: { kind: 'ledger', file: ledger },
    out: scores,
  });
  return { fx, scores };
}
