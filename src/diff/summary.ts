/** The human and JSON summaries of `stimkit diff`. */
import { relPosix } from '../core/fsio.js';
import type { BundleDiff, TrialRef } from './diff.js';
import type { FieldChange } from './values.js';

/** Items shown per list in the human output; `--json` has every one. */
const SHOWN = 15;

/** The machine-readable summary printed by `--json`. */
export function diffJson(d: BundleDiff) {
  return {
    ok: true,
    command: 'diff',
    ...d,
    a: { ...d.a, dir: relPosix(process.cwd(), d.a.dir) },
    b: { ...d.b, dir: relPosix(process.cwd(), d.b.dir) },
  };
}

const show = (v: unknown): string => {
  if (v === undefined) return '(absent)';
  const s = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v);
  return s.length > 90 ? `${s.slice(0, 87)}...` : s;
};

function fieldLines(title: string, changes: FieldChange[]): string[] {
  if (changes.length === 0) return [];
  const lines = [`${title}: ${changes.length} field(s) changed`];
  for (const c of changes.slice(0, SHOWN)) lines.push(`  ${c.path}: ${show(c.a)} → ${show(c.b)}`);
  if (changes.length > SHOWN)
    lines.push(`  … and ${changes.length - SHOWN} more (--json lists every one)`);
  return lines;
}

const trialName = (t: TrialRef) =>
  [t.paradigm, t.lang, t.entry ?? t.topic, t.variant].filter(Boolean).join(' ');

function trialLines(label: string, list: TrialRef[]): string[] {
  if (list.length === 0) return [];
  const counts = new Map<string, number>();
  for (const t of list)
    counts.set(`${t.paradigm} ${t.lang}`, (counts.get(`${t.paradigm} ${t.lang}`) ?? 0) + 1);
  return [
    `trials ${label}: ${list.length} (${[...counts].map(([k, n]) => `${k}: ${n}`).join(', ')})`,
    ...list.slice(0, SHOWN).map((t) => `  ${t.id} ${trialName(t)}`),
    ...(list.length > SHOWN ? [`  … and ${list.length - SHOWN} more`] : []),
  ];
}

/** A readable report: digests, then each kind of change, most consequential first. */
export function diffHuman(d: BundleDiff): string {
  const lines = [
    `A ${relPosix(process.cwd(), d.a.dir)}: ${d.a.study}, ${d.a.trials} trials, digest ${d.a.digest}`,
    `B ${relPosix(process.cwd(), d.b.dir)}: ${d.b.study}, ${d.b.trials} trials, digest ${d.b.digest}`,
  ];
  if (d.identical) return [...lines, 'identical: same digest, same bundle'].join('\n');
  lines.push(...trialLines('added', d.trials.added), ...trialLines('removed', d.trials.removed));
  if (d.trials.changed.length > 0) {
    lines.push(
      `trials changed: ${d.trials.changed.length} (${Object.entries(d.trials.by_field)
        .map(([f, n]) => `${f}: ${n}`)
        .join(', ')})`,
    );
    for (const t of d.trials.changed.slice(0, SHOWN))
      lines.push(`  ${t.id} ${trialName(t)}: ${t.fields.join(', ')}`);
    if (d.trials.changed.length > SHOWN)
      lines.push(`  … and ${d.trials.changed.length - SHOWN} more`);
  }
  const e = d.entries;
  if (e.added.length) lines.push(`entries added: ${e.added.join(', ')}`);
  if (e.removed.length) lines.push(`entries removed: ${e.removed.join(', ')}`);
  for (const c of e.changed) lines.push(...fieldLines(`entry ${c.id}`, c.fields));
  lines.push(...fieldLines('study', d.study), ...fieldLines('variants recipe', d.recipe));
  lines.push(
    ...fieldLines('prompt cards', d.stimuli.prompts),
    ...fieldLines('instrument items', d.stimuli.items),
    ...fieldLines('wrapper pools', d.stimuli.wrappers),
  );
  const nothing = lines.length === 2;
  if (nothing)
    lines.push(
      'no change in meaning (the digests differ in files diff does not compare, e.g. study provenance or counts)',
    );
  return lines.join('\n');
}
