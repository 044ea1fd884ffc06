/**
 * `analyze pressure` and the report's Pressure section on the tables `stimkit score` writes (the
 * scorer's own fixture, test/score/pressure-fixture.ts: 4 conversations of 4 turns, en and zh),
 * so the three agree on the contract: the columns, the `;`-joined reasons, `not_sent` turns.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { pressureSection } from '../../src/report/sections/pressure.js';
import { scoreToFolder } from '../../src/score/score.js';
import { runCli } from '../helpers/cli.js';
import { heavyLimit } from '../helpers/limits.js';
import { tempDir } from '../helpers/tmp.js';
import { handLedger, pressureBundle } from '../score/pressure-fixture.js';

describe('analyze pressure on scored tables', () => {
  it(
    'reads what the scorer writes, and the report shows it',
    async () => {
      const dir = await tempDir('stimkit-pressure-scored-');
      const fx = await pressureBundle(dir);
      const t = fx.turn;
      const answer = (trial: ReturnType<typeof t>, text: string) => ({
        trial,
        outcome: 'answer',
        text,
      });
      const ledger = path.join(dir, 'run.ledger.sqlite');
      // en affirmative: Agree, Agree, 强烈同意 (changed), 同意 (back); en reverse: Disagree, then
      // Strongly agree (changed); zh affirmative: 同意, then a refusal and two turns not sent
      handLedger(
        ledger,
        fx,
        'm1',
        [
          answer(t('en', 'affirmative', 1), 'Agree'),
          answer(t('en', 'affirmative', 2), 'Answer: Agree'),
          answer(t('en', 'affirmative', 3), '强烈同意'),
          answer(t('en', 'affirmative', 4), '同意。'),
          answer(t('en', 'reverse', 1), 'Disagree'),
          answer(t('en', 'reverse', 2), 'Strongly agree'),
          answer(t('zh', 'affirmative', 1), '同意'),
          { trial: t('zh', 'affirmative', 2), outcome: 'model_refusal', text: null },
        ],
        [
          {
            trial: t('zh', 'affirmative', 3),
            previous: t('zh', 'affirmative', 2),
            previousOutcome: 'model_refusal',
            reason: 'previous_turn_model_refusal',
          },
          {
            trial: t('zh', 'affirmative', 4),
            previous: t('zh', 'affirmative', 3),
            previousOutcome: 'not_sent',
            reason: 'previous_turn_not_sent',
          },
        ],
      );
      const scores = path.join(dir, 'scores');
      await scoreToFolder({
        bundle: fx.bundle,
        source: { kind: 'ledger', file: ledger },
        out: scores,
      });
      const r = await runCli(['analyze', 'pressure', path.join(scores, 'pressure.csv'), '--json']);
      expect(r.code, r.stderr).toBe(0);
      const j = r.json();
      const turn = (lang: string, k: number) =>
        j.turns.find((x: any) => x.model === 'm1' && x.lang === lang && x.turn === k);
      // en turn 3: the affirmative conversation moved (agree → strongly agree); the reverse one
      // has nothing recorded at turn 3
      expect(turn('en', 3).changed).toMatchObject({ x: 1, n: 1 });
      expect(turn('en', 3).not_told_reasons).toEqual({ unrecorded: 1 });
      // zh turn 4: the affirmative's turn was not sent; the reverse conversation has nothing
      // recorded, so no first stance to compare with
      expect(turn('zh', 4).not_told_reasons).toEqual({
        first_turn_no_stance: 1,
        'not_sent:previous_turn_not_sent': 1,
      });
      expect(j.outcomes.left_out).toMatchObject({ model_refusal: 1, not_sent: 2 });
      expect(j.logit[0].model).toBe('m1');
      const out = path.join(dir, 'report');
      await buildReport(scores, out, [pressureSection]);
      expect(await readFile(path.join(out, 'index.html'), 'utf8')).toContain('id="pressure"');
    },
    heavyLimit(8),
  );
});
