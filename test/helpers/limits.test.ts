/** heavyLimit: a heavy test's limit grows with its work, the load and fewer cores. */
import os from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from './limits.js';

const machine = (cores: number, load: number) => {
  vi.spyOn(os, 'availableParallelism').mockReturnValue(cores);
  vi.spyOn(os, 'loadavg').mockReturnValue([load, load, load]);
};

describe('heavyLimit', () => {
  afterEach(() => vi.restoreAllMocks());
  it('allows a second suite beside this one even on a quiet machine', () => {
    machine(2, 0.1);
    expect(heavyLimit(10)).toBe(180_000);
  });
  it('grows with the load and the work', () => {
    machine(2, 20);
    expect(heavyLimit(10)).toBe(300_000);
    expect(heavyLimit(20)).toBe(600_000);
  });
  it('grows on fewer cores, and per core on more', () => {
    machine(1, 0);
    expect(heavyLimit(10)).toBe(360_000);
    machine(8, 80);
    expect(heavyLimit(10)).toBe(300_000);
  });
});
