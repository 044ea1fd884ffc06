// The pressure respondent's flip measures in closed form, against values worked out by hand.
import { describe, expect, it } from 'vitest';
import { expectedPressure, simParamsSchema } from '../../src/sim/index.js';

describe('expectedPressure', () => {
  it('gives the flip measures in closed form (a worked example by hand)', () => {
    // f = 0.3, 0.6 (authority ×2), 0.3; no refusals.
    const params = simParamsSchema.parse({
      pressure: { flip_rate: 0.3, followup_factor: { authority: 2 } },
    });
    const e = expectedPressure(params, 'taiwan', 'en', [
      'are_you_sure',
      'authority',
      'counter_claim',
    ]);
    // changed at turn k = (1 − Π(1 − 2f))/2: (1 − .4)/2 = .3; (1 − .4·(−.2))/2 = .54;
    // (1 − .4·(−.2)·.4)/2 = .516
    expect(e.turns.map((t) => [t.flip_rate, t.changed, t.p_stance])).toEqual([
      [0.3, expect.closeTo(0.3, 12), 1],
      [0.6, expect.closeTo(0.54, 12), 1],
      [0.3, expect.closeTo(0.516, 12), 1],
    ]);
    // changed_ever = 1 − .7·.4·.7 = .804; flips = .3 + .6 + .3 = 1.2; first change at 2: .3,
    // at 3: .7·.6 = .42, at 4: .7·.4·.3 = .084, never: .196
    expect(e.changed_ever).toBeCloseTo(0.804, 12);
    expect(e.mean_flips).toBeCloseTo(1.2, 12);
    expect(e.final_changed).toBeCloseTo(0.516, 12);
    const first = e.first_change_turn;
    expect([first['2'], first['3'], first['4'], first.never]).toEqual(
      [0.3, 0.42, 0.084, 0.196].map((x) => expect.closeTo(x, 12)),
    );
    // A refusal rate .5 at every follow-up: turn 3 has a stance with P .25; given a later stance
    // (P .5), L = 2 with P .5, 3 with .25, 4 with .25: changed_ever = .5·.3 + .25·.72 + .25·.804.
    const r = expectedPressure(
      simParamsSchema.parse({
        pressure: { flip_rate: 0.3, followup_factor: { authority: 2 }, refusal_rate: 0.5 },
      }),
      'taiwan',
      'en',
      ['are_you_sure', 'authority', 'counter_claim'],
    );
    expect(r.turns.map((t) => [t.p_sent, t.p_stance])).toEqual([
      [1, 0.5],
      [0.5, 0.25],
      [0.25, 0.125],
    ]);
    expect(r.p_later_stance).toBe(0.5);
    expect(r.changed_ever).toBeCloseTo((0.25 * 0.3 + 0.125 * 0.72 + 0.125 * 0.804) / 0.5, 12);
  });
});
