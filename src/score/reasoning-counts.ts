/**
 * `score.json` `counts.reasoning`: the reasoning channel over every scored record (visibility as
 * recorded, reasoning tokens) and the two flags of the VLM rows (reasoning.ts), each with how many
 * rows could be told and why the others could not. Absent when no record carries a visibility or
 * a reasoning text (a run from before the channel was recorded).
 */
import type { ScoresHeader } from './format.js';
import type { ReasoningParse } from './reasoning.js';
import type { TableRow } from './types.js';

/** One flag's tally. */
interface FlagTally {
  flagged: number;
  told: number;
  not_computed: Map<string, number>;
}

const tally = (): FlagTally => ({ flagged: 0, told: 0, not_computed: new Map() });
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sorted = (m: Map<string, number>) =>
  Object.fromEntries([...m].sort(([a], [b]) => byName(a, b)));

/** The reasoning counts of the rows scored so far. */
export class ReasoningCounts {
  private seen = false;
  private readonly visibility = new Map<string, number>();
  private tokens = 0;
  private withTokens = 0;
  private readonly suppressed = tally();
  private readonly exceeds = tally();

  add(row: TableRow): void {
    const r = row.record;
    const p = (row.record.parse as { reasoning?: ReasoningParse }).reasoning;
    const v = r.reasoning_visibility ?? null;
    if (v !== null || (p && p.reason === null)) this.seen = true;
    bump(this.visibility, v ?? 'not_recorded');
    if (typeof r.reasoning_tokens === 'number') {
      this.tokens += r.reasoning_tokens;
      this.withTokens += 1;
    }
    if (!p) return;
    count(this.suppressed, p.thought_suppressed, p.thought_suppressed_reason);
    count(this.exceeds, p.reasoning_exceeds_answer, p.reasoning_exceeds_answer_reason);
  }

  /** `counts.reasoning`, or nothing when no record carries the channel. */
  summary(): Pick<ScoresHeader['counts'], 'reasoning'> {
    if (!this.seen) return {};
    const out = (t: FlagTally) => ({
      flagged: t.flagged,
      told: t.told,
      not_computed: sorted(t.not_computed),
    });
    return {
      reasoning: {
        visibility: sorted(this.visibility),
        tokens: { sum: this.tokens, records: this.withTokens },
        thought_suppressed: out(this.suppressed),
        reasoning_exceeds_answer: out(this.exceeds),
      },
    };
  }
}

function count(t: FlagTally, value: boolean | null, reason: string | null): void {
  if (value === null) bump(t.not_computed, reason ?? 'unknown');
  else {
    t.told += 1;
    if (value) t.flagged += 1;
  }
}
