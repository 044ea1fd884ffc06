/**
 * The report's "Reasoning" section: built from hand-made responses with their reasoning channel
 * (test/score/reasoning-fixture.ts), it shows the visibility per model and the rates and thinking
 * tables with every column described and readable charts; a scores folder where no reply recorded
 * its reasoning leaves the section out.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { reasoningSection } from '../../src/report/sections/reasoning.js';
import { tempDir } from '../helpers/tmp.js';
import { reasoningScores } from '../score/reasoning-fixture.js';
import { expectDescribedTables, expectReadableCharts } from './checks.js';
import { heavyLimit } from '../helpers/limits.js';

describe('report: reasoning', () => {
  it(
    'shows visibility, the flags with intervals and the thinking McNemar table',
    async () => {
      const dir = await tempDir('stimkit-report-reasoning-');
      const { scores } = await reasoningScores(dir);
      const out = path.join(dir, 'report');
      await buildReport(scores, out, [reasoningSection]);
      const html = await readFile(path.join(out, 'index.html'), 'utf8');
      expect(html).toContain('id="reasoning"');
      const rates = parse<Record<string, string>>(
        await readFile(path.join(out, 'tables', 'reasoning-rates.csv'), 'utf8'),
        { columns: true },
      );
      const en = rates.find((r) => r.model === 'reasoner' && r.lang === 'en')!;
      expect([
        en.thought_suppressed_x,
        en.thought_suppressed_n,
        en.thought_suppressed_rate,
      ]).toEqual(['1', '2', '0.5']);
      const tests = parse<Record<string, string>>(
        await readFile(path.join(out, 'tables', 'thinking-mcnemar.csv'), 'utf8'),
        { columns: true },
      );
      const zh = tests.find(
        (r) => r.model === 'reasoner' && r.lang === 'zh' && r.outcome === 'd1_refusal_lexical',
      )!;
      expect([zh.pairs, zh.b, zh.c, zh.p_exact]).toEqual(['2', '1', '0', '1']);
      await expectDescribedTables(out);
      expect(await expectReadableCharts(out)).toBe(1);
    },
    heavyLimit(7),
  );

  it(
    'is left out when no reply recorded its reasoning',
    async () => {
      const dir = await tempDir('stimkit-report-noreasoning-');
      const { scores } = await reasoningScores(dir, true);
      const out = path.join(dir, 'report');
      await buildReport(scores, out, [reasoningSection]);
      expect(await readFile(path.join(out, 'index.html'), 'utf8')).not.toContain('id="reasoning"');
      expect(existsSync(path.join(out, 'tables', 'reasoning-rates.csv'))).toBe(false);
    },
    heavyLimit(7),
  );
});
