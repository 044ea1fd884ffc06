/**
 * `stimkit compare` of one model through two routes (the same model name, run A through route R1,
 * run B through a gateway that sent half the trials to R2 and half to R3): pairs are by trial ×
 * model, cells by model × the routes that answered in A and in B, so R1 → R2 and R1 → R3 are
 * tested apart, and a changed trial names both routes.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { compareScores, writeCompare } from '../../src/compare/index.js';
import { tempDir } from '../helpers/tmp.js';
import { compareFixture, scoreLines, type ResponseLine } from './fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

type Routed = ResponseLine & { route?: string };

let dir: string;
let fx: Awaited<ReturnType<typeof compareFixture>>;
let scoresA: string;
let scoresB: string;
let changedTrial: string;
const viaR2 = new Set<string>();

beforeAll(async () => {
  dir = await tempDir('stimkit-compare-routes-');
  fx = await compareFixture(dir);
  const a: Routed[] = fx.a.filter((l) => l.model === 'm1').map((l) => ({ ...l, route: 'R1' }));
  const b: Routed[] = a.map((l, i) => ({ ...l, route: i % 2 === 0 ? 'R2' : 'R3' }));
  b.forEach((l) => l.route === 'R2' && viaR2.add(l.trial_id));
  // one answer through R2 changes its label
  const t = fx.trials.find((x) => x.lang === 'en' && viaR2.has(x.id))!;
  changedTrial = t.id;
  b.find((l) => l.trial_id === t.id)!.response = `Answer: ${fx.labels.en![2]!}`;
  scoresA = await scoreLines(dir, fx.bundle, 'a', a);
  scoresB = await scoreLines(dir, fx.bundle, 'b', b);
});

describe('compare: one model through two routes', () => {
  it('names both routes of the changed trial, and nothing else changed', async () => {
    const r = await compareScores(scoresA, scoresB);
    expect(r.version).toBe(2);
    expect(r.counts).toMatchObject({ paired: fx.trials.length, changed: 1, only_a: 0, only_b: 0 });
    expect(r.changed).toHaveLength(1);
    expect(r.changed[0]).toMatchObject({
      trial: changedTrial,
      model: 'm1',
      route_a: 'R1',
      route_b: 'R2',
    });
  });

  it('tests each route pair as its own cell', async () => {
    const r = await compareScores(scoresA, scoresB);
    const cells = new Set(r.mcnemar.map((m) => `${m.model} ${m.route_a}→${m.route_b}`));
    expect([...cells].sort()).toEqual(['m1 R1→R2', 'm1 R1→R3']);
    const n = (route: string) =>
      r.transitions
        .filter((t) => t.route_b === route && t.column === r.transitions[0]!.column)
        .reduce((s, t) => s + t.n, 0);
    expect(n('R2')).toBe(viaR2.size);
    expect(n('R3')).toBe(fx.trials.length - viaR2.size);
    // the changed label moves in the R1 → R2 cell only
    const moved = r.transitions.filter((t) => t.from !== t.to);
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.every((t) => t.route_a === 'R1' && t.route_b === 'R2' && t.n === 1)).toBe(true);
  });

  it('a run against itself: nothing changed, each route its own cell', async () => {
    const r = await compareScores(scoresB, scoresB);
    expect(r.counts.changed).toBe(0);
    const cells = new Set(r.mcnemar.map((m) => `${m.route_a}→${m.route_b}`));
    expect([...cells].sort()).toEqual(['R2→R2', 'R3→R3']);
  });

  it('writes the routes in the CSV tables', async () => {
    const out = path.join(dir, 'cmp');
    await writeCompare(await compareScores(scoresA, scoresB), out);
    const changed = (await readFile(path.join(out, 'changed.csv'), 'utf8')).split('\n');
    expect(changed[0]).toMatch(/^trial,model,paradigm,language,route_a,route_b,changed,/);
    expect(changed[1]).toContain(`${changedTrial},m1,instrument,en,R1,R2,`);
    const mc = (await readFile(path.join(out, 'mcnemar.csv'), 'utf8')).split('\n');
    expect(mc[0]).toMatch(/^model,route_a,route_b,paradigm,language,column,/);
  });
});
