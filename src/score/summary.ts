/** The human and JSON summaries of `stimkit score`. */
import { relPosix } from '../core/fsio.js';
import type { ScoreResult } from './score.js';

/** The machine-readable summary printed by `--json`. */
export function scoreJson(r: ScoreResult) {
  return { ok: true, command: 'score', out: relPosix(process.cwd(), r.out), bundle: r.header.bundle, counts: r.header.counts, files: r.header.files };
}

/** The human summary: records per model, zero reasons, files written. */
export function scoreHuman(r: ScoreResult): string {
  const c = r.header.counts;
  const lines = [`scored ${c.records} responses to bundle ${r.header.bundle.digest.slice(0, 16)}… (${c.models.length} model(s))`];
  for (const m of c.models) lines.push(`  ${m.name}: ${m.records}${m.origin ? ` (${m.origin})` : ''}${m.simulated ? ' [simulated]' : ''}`);
  const reasons = Object.entries(c.by_reason);
  if (reasons.length > 0) lines.push(`  scored 0: ${reasons.map(([k, v]) => `${k} ${v}`).join(', ')}`);
  for (const [p, n] of Object.entries(c.unscored)) lines.push(`  not scored: ${n} response(s) to ${p} trials (no scorer for this paradigm yet)`);
  if (c.simulated > 0) lines.push(`  ${c.simulated} simulated response(s): every table marks them`);
  lines.push(`wrote ${r.header.files.map((f) => f.file).join(', ')}, score.json in ${relPosix(process.cwd(), r.out)}`);
  return lines.join('\n');
}
