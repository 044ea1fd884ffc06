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
