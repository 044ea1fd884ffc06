/**
 * Counter-based randomness for the simulator: every draw is the SHA-256 of a label, so a draw
 * depends only on (seed, model name, trial id, what is drawn) and never on order, sharding or
 * which other trials exist. No Math.random anywhere.
 *
 *   key = "stimkit-sim/v1" "|" seed "|" model "|" trial id "|" label
 *   u   = (first 53 bits of SHA-256(UTF-8(key)) + 0.5) / 2^53        (0 < u < 1)
 */
import { hash } from 'node:crypto';

const DOMAIN = 'stimkit-sim/v1';
const TWO53 = 2 ** 53;

/** A uniform in the open interval (0, 1) from a key. */
export function uniformOf(key: string): number {
  const d = hash('sha256', key, 'buffer');
  const hi = d.readUInt32BE(0); // 32 bits
  const lo = d.readUInt32BE(4) >>> 11; // 21 bits
  return (hi * 2 ** 21 + lo + 0.5) / TWO53;
}

/** The draws of one (seed, model, trial): `u(label)` is a fresh uniform per label. */
export interface Stream {
  /** A uniform in (0, 1) for this label. */
  u(label: string): number;
  /** True with probability p. */
  bernoulli(label: string, p: number): boolean;
  /** A logistic variate with mean 0 and standard deviation `sd`. */
  logistic(label: string, sd: number): number;
  /** A key drawn with probability proportional to its weight (keys in the given order). */
  pick<K extends string>(label: string, weights: ReadonlyArray<readonly [K, number]>): K;
  /** An index in 0 … n−1, uniformly. */
  index(label: string, n: number): number;
}

/** The scale s of a logistic distribution with standard deviation sd (sd = s·π/√3). */
const logisticScale = (sd: number): number => (sd * Math.sqrt(3)) / Math.PI;

/** The logistic CDF with mean 0 and standard deviation sd. */
export function logisticCdf(x: number, sd: number): number {
  return 1 / (1 + Math.exp(-x / logisticScale(sd)));
}

/** The stream of one respondent's answer to one trial. */
export function stream(seed: number, model: string, trialId: string): Stream {
  const prefix = `${DOMAIN}|${seed}|${model}|${trialId}|`;
  const u = (label: string) => uniformOf(prefix + label);
  return {
    u,
    bernoulli: (label, p) => p > 0 && u(label) < p,
    logistic: (label, sd) => {
      const x = u(label);
      return logisticScale(sd) * Math.log(x / (1 - x));
    },
    pick: (label, weights) => {
      const total = weights.reduce((s, [, w]) => s + w, 0);
      if (!(total > 0)) throw new Error(`no positive weight to pick ${label} from`);
      let r = u(label) * total;
      for (const [k, w] of weights) {
        if (r < w) return k;
        r -= w;
      }
      return weights.filter(([, w]) => w > 0).at(-1)![0];
    },
    index: (label, n) => Math.min(n - 1, Math.floor(u(label) * n)),
  };
}
