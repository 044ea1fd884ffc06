/**
 * Runs and models inside a ledger. A run is tied to one bundle digest; reopening it with another
 * bundle, or with a model whose request-shaping settings changed, is refused naming what changed,
 * unless `--new-run LABEL` starts a new run in the same file.
 */
import { StimkitError } from '../core/errors.js';
import { sha256 } from '../core/fsio.js';
import { canonicalJson } from '../core/json.js';
import { TOOL } from '../core/tool.js';
import type { Trial } from '../bundle/format.js';
import type { Db } from './open.js';

/** A run as the ledger holds it. */
export interface RunRow {
  run_id: number;
  label: string;
  bundle_digest: string;
  study_id: string | null;
  created_at: string;
}

/** The default label of the first run in a ledger. */
const DEFAULT_RUN = 'main';

/**
 * The run to write: a new one labelled `newRun`, else the latest run (which must be of `digest`),
 * else a first run labelled `main`.
 */
export function ensureRun(
  db: Db,
  file: string,
  digest: string,
  studyId: string | null,
  newRun?: string,
): RunRow {
  const latest = db
    .prepare(
      'SELECT run_id, label, bundle_digest, study_id, created_at FROM runs ORDER BY run_id DESC LIMIT 1',
    )
    .get() as RunRow | undefined;
  if (newRun === undefined && latest) {
    if (latest.bundle_digest !== digest) {
      throw StimkitError.fromProblem({
        code: 'E_RUN_LEDGER_DIGEST',
        file,
        message: `this ledger's run "${latest.label}" is of another bundle`,
        expected: `bundle ${latest.bundle_digest}`,
        got: `bundle ${digest}`,
        fix: 'pass the bundle this ledger was run with, use another --ledger file, or add --new-run LABEL to start a new run in this file',
      });
    }
    return latest;
  }
  const label = newRun ?? DEFAULT_RUN;
  const taken = db.prepare('SELECT 1 FROM runs WHERE label = ?').get(label);
  if (taken) {
    throw StimkitError.fromProblem({
      code: 'E_RUN_LABEL_TAKEN',
      file,
      message: `a run labelled "${label}" already exists in this ledger`,
      fix: 'choose another --new-run label',
    });
  }
  const created_at = new Date().toISOString();
  const info = db
    .prepare(
      'INSERT INTO runs (label, bundle_digest, study_id, created_at, tool_version) VALUES (?, ?, ?, ?, ?)',
    )
    .run(label, digest, studyId, created_at, TOOL.version);
  return {
    run_id: Number(info.lastInsertRowid),
    label,
    bundle_digest: digest,
    study_id: studyId,
    created_at,
  };
}

/**
 * Record the trials' design fields for a run (idempotent), so that exports need no bundle. A row
 * an earlier stimkit wrote keeps its fields and gains the thinking level it lacked (the column is
 * newer than the row; the run's bundle, hence the trial, is the same).
 */
export function insertTrials(db: Db, runId: number, trials: Trial[]): void {
  const put = db.prepare(
    `INSERT INTO trials (run_id, trial_id, block, paradigm, arm, lang, entry, item, topic, variant, framing, iteration, seed, prompt, model_set, conversation_id, turn, followup, thinking)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (run_id, trial_id) DO UPDATE SET thinking = excluded.thinking
       WHERE trials.thinking IS NULL AND excluded.thinking IS NOT NULL`,
  );
  db.transaction(() => {
    for (const t of trials) {
      const block =
        t.paradigm === 'instrument' || t.paradigm === 'pressure'
          ? `${t.paradigm}/${t.arm}`
          : t.paradigm;
      put.run(
        runId,
        t.id,
        block,
        t.paradigm,
        t.arm,
        t.lang,
        t.entry,
        t.item,
        t.topic,
        t.variant,
        t.framing,
        t.iteration,
        t.seed,
        t.prompt,
        t.models,
        t.conversation?.id ?? null,
        t.conversation?.turn ?? null,
        t.conversation?.followup ?? null,
        t.thinking ?? null,
      );
    }
  })();
}

/** The differences between two request profiles, as `field: old → new` lines. */
function profileDiff(before: unknown, after: unknown, at = ''): string[] {
  if (canonicalJson(before ?? null) === canonicalJson(after ?? null)) return [];
  const isObj = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(before) && isObj(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((k) => profileDiff(before[k], after[k], at ? `${at}.${k}` : k));
  }
  const show = (v: unknown) => (v === undefined ? '(unset)' : JSON.stringify(v));
  return [`${at || '(profile)'}: ${show(before)} → ${show(after)}`];
}

/**
 * Register a model in a run, or check it against the profile recorded before. A profile of null
 * (recorded by `batch import` without a models file) is filled in by the first run that has one.
 */
export function registerModel(
  db: Db,
  file: string,
  run: RunRow,
  model: string,
  provider: string,
  profile: Record<string, unknown> | null,
  info: Record<string, unknown>,
  /** Where the settings came from, for the fix of E_RUN_REQUEST_CHANGED. */
  settingsFrom: 'models file' | 'flags' = 'models file',
): void {
  const row = db
    .prepare('SELECT profile FROM models WHERE run_id = ? AND model = ?')
    .get(run.run_id, model) as { profile: string | null } | undefined;
  const text = profile === null ? null : canonicalJson(profile);
  if (!row) {
    db.prepare(
      'INSERT INTO models (run_id, model, provider, profile, profile_sha256, info, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(
      run.run_id,
      model,
      provider,
      text,
      text === null ? null : sha256(text),
      JSON.stringify(info),
      new Date().toISOString(),
    );
    return;
  }
  if (row.profile === null || text === null) {
    if (text !== null)
      db.prepare(
        'UPDATE models SET profile = ?, profile_sha256 = ? WHERE run_id = ? AND model = ?',
      ).run(text, sha256(text), run.run_id, model);
    return;
  }
  const changes = profileDiff(JSON.parse(row.profile), profile);
  if (changes.length > 0) {
    throw StimkitError.fromProblem({
      code: 'E_RUN_REQUEST_CHANGED',
      file,
      message: `model "${model}": its requests would differ from those recorded in run "${run.label}" (${changes.join('; ')})`,
      fix: `${settingsFrom === 'flags' ? 'give the recorded --endpoint, --api-model and --api-key-env again' : 'restore the recorded settings in the models file'} to resume, or add --new-run LABEL to start a new run in this ledger`,
    });
  }
}
