// A simulated respondent's reasoning habit, as `run` records it (run/sim-run.ts): the reasoning
// text, visibility and tokens of every reply, and `absent` without a habit.
import { beforeAll, describe, expect, it } from 'vitest';
import type { LedgerWriter } from '../../src/ledger/write.js';
import { ModelSpec } from '../../src/models/schema.js';
import { newStats } from '../../src/run/model-stats.js';
import { runSimModel } from '../../src/run/sim-run.js';
import type { SimBundle } from '../../src/sim/index.js';
import { fixtureBundle, vlmTrials } from '../sim/fixture.js';

let bundle: SimBundle;
beforeAll(async () => {
  bundle = await fixtureBundle();
});

type Row = { final: Record<string, unknown> };

async function recorded(sim: Record<string, unknown>): Promise<Row[]> {
  const rows: Row[] = [];
  const writer = { recordMany: (r: Row[]) => rows.push(...r) } as unknown as LedgerWriter;
  const model = ModelSpec.parse({ name: 'sim-r', provider: 'sim', sim });
  const trials = vlmTrials('square-1989', 'describe', 'zh', 'A0', 200);
  await runSimModel(
    model,
    trials,
    bundle,
    writer,
    newStats(model.name, 'sim', trials.length, 0, trials.length),
    new Map(),
    () => false,
  );
  return rows;
}

describe('run: a simulated reasoning habit into the ledger', () => {
  it('writes each reply’s reasoning text, visibility and tokens; absent without a habit', async () => {
    const vlm = { refusal: { high: 0.5 } };
    const none = await recorded({ seed: 3, vlm });
    expect(
      new Set(
        none.map((r) =>
          JSON.stringify([
            r.final.reasoning_text,
            r.final.reasoning_visibility,
            r.final.reasoning_tokens,
          ]),
        ),
      ),
    ).toEqual(new Set([JSON.stringify([null, 'absent', null])]));
    const habit = await recorded({
      seed: 3,
      vlm,
      reasoning: { visibility: 'full', suppression: 1 },
    });
    for (const r of habit) {
      const truth = r.final.truth as {
        refused: boolean;
        reframed: boolean;
        reasoning: { suppressed: boolean };
      };
      expect(truth.reasoning.suppressed).toBe(truth.refused || truth.reframed);
      expect(r.final.reasoning_visibility).toBe(truth.reasoning.suppressed ? 'empty' : 'full');
      expect(r.final.reasoning_tokens).toEqual(expect.any(Number));
      expect(typeof r.final.reasoning_text).toBe('string');
    }
    expect(new Set(habit.map((r) => r.final.reasoning_visibility))).toEqual(
      new Set(['empty', 'full']),
    );
  });
});
