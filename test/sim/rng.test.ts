/** The simulator's counter-based draws: the documented worked example and their uniformity. */
import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import { describe, expect, it } from 'vitest';
import { logisticCdf, stream, uniformOf } from '../../src/sim/rng.js';

describe('counter-based draws', () => {
  it('match the worked example of docs/simulated-respondents.md (computed independently in Python)', () => {
    // hashlib.sha256(key).digest()[:8] = 466244b1344ff1d3; (u64 >> 11 + 0.5) / 2**53
    expect(uniformOf('stimkit-sim/v1|1|sim-acquiescer|t_e97befdf9dcce6bdd23cc4f6|noise')).toBe(
      0.27493695570257143,
    );
    expect(stream(1, 'sim-acquiescer', 't_e97befdf9dcce6bdd23cc4f6').u('noise')).toBe(
      0.27493695570257143,
    );
  });

  it('are uniform (chi-square over 20 bins, 20,000 draws) and logistic variates have the set sd', () => {
    const s = stream(7, 'm', 't_x');
    const bins = new Array<number>(20).fill(0);
    const xs: number[] = [];
    for (let i = 0; i < 20_000; i += 1) {
      bins[Math.floor(s.u(`u${i}`) * 20)]! += 1;
      xs.push(s.logistic(`l${i}`, 0.8));
    }
    const chi2 = bins.reduce((a, o) => a + (o - 1000) ** 2 / 1000, 0);
    expect(1 - chisquareCdf(chi2, 19)).toBeGreaterThan(0.001);
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(Math.abs(sd - 0.8)).toBeLessThan(0.03);
    expect(xs.filter((x) => x < 0.5).length / xs.length).toBeCloseTo(logisticCdf(0.5, 0.8), 1);
  });

  it('depend on seed, model and trial, and pick by weight', () => {
    const u = (seed: number, model: string, trial: string) => stream(seed, model, trial).u('x');
    expect(new Set([u(1, 'a', 't'), u(2, 'a', 't'), u(1, 'b', 't'), u(1, 'a', 's')]).size).toBe(4);
    const s = stream(3, 'm', 't');
    const picks = Array.from({ length: 4000 }, (_, i) =>
      s.pick(`p${i}`, [
        ['a', 0.25],
        ['b', 0],
        ['c', 0.75],
      ] as const),
    );
    expect(picks.includes('b')).toBe(false);
    expect(Math.abs(picks.filter((p) => p === 'a').length / 4000 - 0.25)).toBeLessThan(
      4 * Math.sqrt(0.1875 / 4000),
    );
  });
});
