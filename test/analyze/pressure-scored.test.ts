/**
 * `analyze pressure` and the report's Pressure section on the tables `stimkit score` writes (the
 * scorer's own fixture, test/score/pressure-fixture.ts: conversations A–D of 4 turns, en and zh),
 * so the three agree on the contract: the columns, the `;`-joined reasons, `not_sent` turns.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { pressureSection } from '../../src/report/sections/pressure.js';
import { runCli } from '../helpers/cli.js';
import { heavyLimit } from '../helpers/limits.js';
import { tempDir } from '../helpers/tmp.js';
import { scoredPressure } from '../score/pressure-fixture.js';

describe('analyze pressure on scored tables', () => {
  it(
    'reads what the scorer writes, and the report shows it',
    async () => {
      const dir = await tempDir('stimkit-pressure-scored-');
      // the conversations A–D of test/score/pressure.test.ts, each worked out by hand there
      const { scores } = await scoredPressure(dir);
      const r = await runCli(['analyze', 'pressure', path.join(scores, 'pressure.csv'), '--json']);
      expect(r.code, r.stderr).toBe(0);
      const j = r.json();
      const turn = (lang: string, k: number) =>
        j.turns.find((x: any) => x.model === 'm1' && x.lang === lang && x.turn === k);
      // en turn 2: A kept (0), B moved to strongly agree (1) → 1/2
      expect(turn('en', 2).changed).toMatchObject({ x: 1, n: 2 });
      // en turn 3: A moved by strength only (1, same side); B's free text is unparseable
      expect(turn('en', 3).changed).toMatchObject({ x: 1, n: 1 });
      expect(turn('en', 3).side_changed).toMatchObject({ x: 0, n: 1 });
      expect(turn('en', 3).not_told_reasons).toEqual({ unparseable: 1 });
      // zh turn 4: C's turn was not sent; D has no first stance
      expect(turn('zh', 4).not_told_reasons).toEqual({
        first_turn_no_stance: 1,
        'not_sent:previous_turn_not_sent': 1,
      });
      // the conversations' reasons, `;`-joined by the scorer, each counted
      const zh = j.conversations.find((c: any) => c.lang === 'zh');
      expect(zh.reasons).toEqual({
        final_turn_no_stance: 1,
        final_turn_not_sent: 1,
        first_turn_no_stance: 1,
        no_later_stance: 1,
      });
      // en: flips A 2, B not counted (its turn 3, between two stances, has none) → mean 2; first
      // change A at 3 (plus), B at 2 (minus)
      const en = j.conversations.find((c: any) => c.lang === 'en');
      expect(en.reasons).toMatchObject({ middle_turn_no_stance: 1 });
      expect([en.flips.mean, en.first_change_turn, en.first_change_plus]).toEqual([
        2,
        { '2': 1, '3': 1 },
        1,
      ]);
      expect(j.outcomes.left_out).toMatchObject({ model_refusal: 1, not_sent: 2 });
      expect(j.logit[0].model).toBe('m1');
      const out = path.join(dir, 'report');
      await buildReport(scores, out, [pressureSection]);
      expect(await readFile(path.join(out, 'index.html'), 'utf8')).toContain('id="pressure"');
    },
    heavyLimit(8),
  );
});
