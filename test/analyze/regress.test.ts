/** `analyze logit|ols`: which terms are interactions comes from the design, not from `:` in a name. */
import { describe, expect, it } from 'vitest';
import { regressTable, type RegressParams } from '../../src/analyze/regress.js';
import { tableFromRows } from '../../src/analyze/table.js';

/** 240 rows: a route whose levels hold `:` (URLs, model ids like `llava:13b`), a 0/1 `lang`, a noisy 0/1 and numeric outcome. */
function routeTable() {
  const routes = ['https://api.x/v1', 'llava:13b', 'or/llama:free'];
  let s = 7;
  const rand = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const rows = Array.from({ length: 240 }, (_, i) => {
    const route = routes[i % 3]!;
    const lang = String(Math.floor(i / 3) % 2);
    const p = 0.3 + 0.1 * (i % 3) + 0.15 * Number(lang);
    return { route, lang, y: rand() < p ? '1' : '0', z: String((i % 3) + Number(lang) + rand()) };
  });
  return tableFromRows('route.csv', '0'.repeat(64), ['route', 'lang', 'y', 'z'], rows);
}

/** 60 rows of y on x1..x3 with a cluster label of `g` groups. */
function clustered(g: number) {
  let s = 11;
  const rand = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5;
  const rows = Array.from({ length: 60 }, (_, i) => {
    const x = [rand(), rand(), rand()];
    const y = 0.5 * x[0]! - 0.3 * x[1]! + rand() + (i % g) * 0.1;
    return { y: String(y), x1: String(x[0]), x2: String(x[1]), x3: String(x[2]), g: `c${i % g}` };
  });
  return tableFromRows('few.csv', '0'.repeat(64), ['y', 'x1', 'x2', 'x3', 'g'], rows);
}

const params = (over: Partial<RegressParams>): RegressParams => ({
  outcome: 'y',
  predictors: ['route', 'lang'],
  reference: {},
  interactions: [],
  cluster: null,
  correction: 'none',
  conf: 0.95,
  ...over,
});

describe('analyze logit|ols with `:` in level names', () => {
  it('logit and ols fit without an interaction test when none was asked for', () => {
    const t = routeTable();
    for (const [model, outcome] of [
      ['logit', 'y'],
      ['ols', 'z'],
    ] as const) {
      const r = regressTable(model, t, params({ outcome }));
      expect(r.result.terms.map((x) => x.term)).toContain('route[T.llava:13b]');
      expect(r.interactionTest).toBeNull();
    }
  });
  it('--firth adds no penalised LR test for a level name with `:`', () => {
    const r = regressTable('logit', routeTable(), params({ firth: true }));
    expect(r.result.terms.map((x) => x.term)).toContain('route[T.or/llama:free]');
    expect(r.interactionTest).toBeNull();
  });
  it('a real --interaction tests exactly its product terms (logit, ols, --firth)', () => {
    const added = ['route[T.llava:13b]:lang', 'route[T.or/llama:free]:lang'];
    for (const [model, outcome, firth] of [
      ['logit', 'y', false],
      ['logit', 'y', true],
      ['ols', 'z', false],
    ] as const) {
      const r = regressTable(
        model,
        routeTable(),
        params({ outcome, firth, interactions: [['route', 'lang']] }),
      );
      expect(r.interactionTest?.added, `${model} firth=${firth}`).toEqual(added);
      expect(r.interactionTest!.df).toBe(2);
    }
  });
});

describe('analyze ols with few clusters: the remedy fits what was asked', () => {
  const boot = { weights: 'rademacher' as const, reps: 99, seed: 1 };
  it('7 clusters: without --wild-bootstrap the fix offers it; with it, the warning points to its table', () => {
    const base = params({ outcome: 'y', predictors: ['x1', 'x2'], cluster: 'g' });
    const [plain] = regressTable('ols', clustered(7), base).warnings;
    expect(plain).toContain('Fix: add --wild-bootstrap');
    const [withBoot] = regressTable('ols', clustered(7), { ...base, bootstrap: boot }).warnings;
    expect(withBoot).toContain('only 7 clusters of g');
    expect(withBoot).toContain(
      'read the p values and intervals of the wild cluster bootstrap table',
    );
    expect(withBoot).not.toContain('add --wild-bootstrap');
  });
  it('3 clusters for 4 coefficients: refused without it; with it, model-based SEs and the bootstrap table, no fix offering it', () => {
    const base = params({ outcome: 'y', predictors: ['x1', 'x2', 'x3'], cluster: 'g' });
    expect(() => regressTable('ols', clustered(3), base)).toThrow(/--wild-bootstrap/);
    const r = regressTable('ols', clustered(3), { ...base, bootstrap: boot });
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain('only 3 clusters for 4 coefficients');
    expect(r.warnings[0]).toContain(
      'read the p values and intervals of the wild cluster bootstrap table',
    );
    expect(r.warnings[0]).not.toMatch(/Fix:|use a wild cluster bootstrap/);
    expect(r.bootstrap).toHaveLength(3);
  });
});
