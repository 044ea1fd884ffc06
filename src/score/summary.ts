/** The human and JSON summaries of `stimkit score`. */
import { relPosix } from '../core/fsio.js';
import type { JudgePairAgreement } from './instrument-judge-agreement.js';
import type { ScoreResult } from './score.js';

interface JudgeParams {
  primary: string;
  free_text: number;
  judges: Array<{ name: string; simulated: boolean; labels: Record<string, number> }>;
  agreement: JudgePairAgreement[];
}

/** The instrument's free-text judging recorded in score.json, or null without a judge. */
function instrumentJudge(r: ScoreResult): JudgeParams | null {
  return (
    (r.header.params.scorers.instrument as { judge?: JudgeParams | null } | undefined)?.judge ??
    null
  );
}

const fmt = (x: number | null, digits = 3) => (x === null ? 'n/a' : x.toFixed(digits));

/** Lines on the free-text judges: answers judged, labels, agreement with the primary judge. */
function judgeLines(j: JudgeParams): string[] {
  const lines = [
    `  instrument free text: ${j.free_text} answer(s) sent to ${j.judges.map((x) => x.name + (x.simulated ? ' [simulated]' : '')).join(', ')} (primary ${j.primary})`,
  ];
  for (const x of j.judges)
    lines.push(
      `    ${x.name}: ${
        Object.entries(x.labels)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ') || 'nothing judged'
      }`,
    );
  for (const a of j.agreement) {
    lines.push(
      `    ${a.b} vs ${a.a}: n ${a.n}, exact ${a.exact === null ? 'n/a' : `${(100 * a.exact).toFixed(1)} %`}, quadratic kappa ${fmt(a.kappa_quadratic)}, signed drift ${fmt(a.drift_stance)} (stance)`,
    );
  }
  return lines;
}

/** The machine-readable summary printed by `--json`. */
export function scoreJson(r: ScoreResult) {
  return {
    ok: true,
    command: 'score',
    out: relPosix(process.cwd(), r.out),
    bundle: r.header.bundle,
    counts: r.header.counts,
    instrument_judge: instrumentJudge(r),
    files: r.header.files,
  };
}

/** The human summary: records per model, zero reasons, files written. */
export function scoreHuman(r: ScoreResult): string {
  const c = r.header.counts;
  const lines = [
    `scored ${c.records} responses to bundle ${r.header.bundle.digest.slice(0, 16)}… (${c.models.length} model(s))`,
  ];
  for (const m of c.models)
    lines.push(
      `  ${m.name}: ${m.records}${m.origin ? ` (${m.origin})` : ''}${m.simulated ? ' [simulated]' : ''}`,
    );
  const reasons = Object.entries(c.by_reason);
  if (reasons.length > 0)
    lines.push(
      // The instrument scores these 0 (the paper's convention); pressure and the audit leave them empty.
      `  no stance read (score 0 or empty), by reason: ${reasons.map(([k, v]) => `${k} ${v}`).join(', ')}`,
    );
  for (const x of c.not_computed ?? [])
    lines.push(
      `  not computed for ${x.lang} (no rules for this language): ${x.columns.join(', ')} in ${x.rows} row(s)`,
    );
  const rc = c.reasoning;
  if (rc)
    lines.push(
      `  reasoning: thought suppressed in ${rc.thought_suppressed.flagged} of ${rc.thought_suppressed.told} row(s) where it can be told, reasoning exceeds the answer in ${rc.reasoning_exceeds_answer.flagged} of ${rc.reasoning_exceeds_answer.told} (reasoning.csv)`,
    );
  for (const [p, n] of Object.entries(c.unscored))
    lines.push(`  not scored: ${n} response(s) to ${p} trials (no scorer for this paradigm yet)`);
  const judge = instrumentJudge(r);
  if (judge) lines.push(...judgeLines(judge));
  if (c.simulated > 0) lines.push(`  ${c.simulated} simulated response(s): every table marks them`);
  lines.push(
    `wrote ${r.header.files.map((f) => f.file).join(', ')}, score.json in ${relPosix(process.cwd(), r.out)}`,
  );
  return lines.join('\n');
}
