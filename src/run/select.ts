/**
 * Which trials each model runs: the trial's model set when the study names sets (every trial
 * otherwise), only text trials for a text-only model, the model's own paradigm list, then
 * `--where` and `--limit`.
 */
import path from 'node:path';
import type { Trial } from '../bundle/format.js';
import { openBundle, type SealedBundle } from '../bundle/reader.js';
import { StimkitError } from '../core/errors.js';
import type { ModelSpec } from '../models/schema.js';

/** The parts of a sealed bundle a run reads. */
export interface RunBundle {
  dir: string;
  digest: string;
  trials: Trial[];
  /** The study's model sets (name → model names); empty when the study names none. */
  modelSets: Record<string, string[]>;
  /** The study id from bundle.json. */
  studyId: string | null;
  /** The bundle as opened (for the simulator's view of its payload files). */
  sealed: SealedBundle;
}

/** The block a trial belongs to: its paradigm, or `instrument/<arm>` and `pressure/<arm>`. */
export function blockOf(t: Trial): string {
  return t.paradigm === 'instrument' || t.paradigm === 'pressure'
    ? `${t.paradigm}/${t.arm}`
    : t.paradigm;
}

/**
 * Read the trials and the study's model sets of a verified bag (`digest` is what `stimkit verify`
 * found); E_RUN_BUNDLE_INVALID when the bundle is not one or changed since.
 */
export async function readRunBundle(dir: string, digest: string): Promise<RunBundle> {
  const sealed = await openBundle(dir, 'E_RUN_BUNDLE_INVALID');
  if (sealed.digest !== digest)
    throw StimkitError.fromProblem({
      code: 'E_RUN_BUNDLE_INVALID',
      file: path.join(dir, 'manifest-sha256.txt'),
      message: 'the bundle changed while it was being read (its digest is not the one verified)',
      expected: digest,
      got: sealed.digest,
      fix: 'leave the bundle folder alone during the run, then run the command again',
    });
  const [trials, study] = await Promise.all([sealed.trials(), sealed.study()]);
  return {
    dir,
    digest,
    trials,
    modelSets: study?.study.models ?? {},
    studyId: sealed.header.study.id,
    sealed,
  };
}

/** Trial fields `--where` may name. */
const WHERE_FIELDS = [
  'id',
  'block',
  'paradigm',
  'arm',
  'lang',
  'entry',
  'item',
  'topic',
  'variant',
  'framing',
  'iteration',
  'seed',
  'prompt',
  'models',
] as const;

/** A parsed `--where`: each field must equal one of its values. */
export type Where = Array<{ field: (typeof WHERE_FIELDS)[number]; values: string[] }>;

/** Parse `paradigm=describe,lang=zh` (`variant=A3|A4` for alternatives). */
export function parseWhere(expr: string): Where {
  const out: Where = [];
  for (const clause of expr
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([a-z_]+)\s*=\s*(\S.*)$/.exec(clause);
    if (!m)
      throw StimkitError.usage(
        'E_RUN_WHERE',
        `--where: "${clause}" is not field=value (e.g. paradigm=describe,lang=zh)`,
        'write each --where clause as field=value, clauses joined by commas',
      );
    const field = m[1] as (typeof WHERE_FIELDS)[number];
    if (!WHERE_FIELDS.includes(field)) {
      throw StimkitError.usage(
        'E_RUN_WHERE',
        `--where: unknown trial field "${m[1]}" (fields: ${WHERE_FIELDS.join(', ')})`,
        'use one of the trial fields listed in --where',
      );
    }
    out.push({ field, values: m[2]!.split('|').map((v) => v.trim()) });
  }
  return out;
}

function fieldValue(t: Trial, field: (typeof WHERE_FIELDS)[number]): string {
  const v = field === 'block' ? blockOf(t) : t[field];
  return v === null || v === undefined ? 'null' : String(v);
}

/** Whether a trial passes `where`. */
export function matches(t: Trial, where: Where): boolean {
  return where.every((c) => c.values.includes(fieldValue(t, c.field)));
}

/** The trials `model` runs, in bundle order. `anyModel` (the one-model shorthand) ignores model sets. */
export function trialsFor(
  bundle: RunBundle,
  model: ModelSpec,
  where: Where,
  limit?: number,
  anyModel = false,
): Trial[] {
  const hasSets = Object.keys(bundle.modelSets).length > 0;
  const out: Trial[] = [];
  for (const t of bundle.trials) {
    if (
      !anyModel &&
      hasSets &&
      t.models !== null &&
      !(bundle.modelSets[t.models] ?? []).includes(model.name)
    )
      continue;
    if (t.images.length > 0 && !model.modalities.includes('image')) continue;
    if (model.paradigms && !model.paradigms.includes(t.paradigm)) continue;
    if (!matches(t, where)) continue;
    out.push(t);
    if (limit !== undefined && out.length >= limit) break;
  }
  return out;
}

/**
 * Refuse (exit 1, before any ledger is opened) a `--where` under which no model has a trial,
 * naming the values each of its fields takes among the trials the models could run.
 */
export function refuseEmptyWhere(
  bundle: RunBundle,
  models: ModelSpec[],
  where: Where,
  selected: number,
  anyModel = false,
): void {
  if (where.length === 0 || selected > 0) return;
  const pool = new Map<string, Trial>();
  for (const m of models)
    for (const t of trialsFor(bundle, m, [], undefined, anyModel)) pool.set(t.id, t);
  const existing = where.map((c) => {
    const values = [...new Set([...pool.values()].map((t) => fieldValue(t, c.field)))].sort();
    const shown =
      values.slice(0, 20).join(' | ') +
      (values.length > 20 ? ` | … (${values.length} values)` : '');
    return `${c.field}: ${values.length ? shown : '(no trials at all)'}`;
  });
  throw StimkitError.fromProblem({
    code: 'E_RUN_WHERE_EMPTY',
    field: '--where',
    message: `selects no trial of ${models.map((m) => `"${m.name}"`).join(', ')}; nothing sent, no ledger written`,
    expected: `values that exist: ${existing.join('; ')}`,
    got: where.map((c) => `${c.field}=${c.values.join('|')}`).join(','),
    fix: 'pick values from the list above (alternatives with |, e.g. lang=en|zh)',
  });
}
