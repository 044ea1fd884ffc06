/**
 * The report's "Pressure" section, on a minimal scores folder holding the hand-written pressure
 * tables of test/analyze/pressure-fixture.ts (every stance listed there): the section's numbers
 * equal `analyze pressure`'s, the chart's points are each model's share changed per turn (languages
 * pooled) with Wilson intervals and its phone layout fits 400 px, every column is described, what
 * could not be computed is said in words; without pressure rows the section is left out.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { PHONE_WIDTH } from '../../src/report/phone.js';
import { pressureSection } from '../../src/report/sections/pressure.js';
import { svgWidth } from '../../src/report/writer.js';
import { TURN_HEADER } from '../analyze/pressure-fixture.js';
import { heavyLimit } from '../helpers/limits.js';
import { tempDir } from '../helpers/tmp.js';
import { expectDescribedTables, expectReadableCharts } from './checks.js';
import { pressureScores, scoresFolder } from './pressure-scores.js';

const csvOf = async (file: string) =>
  parse<Record<string, string>>(await readFile(file, 'utf8'), { columns: true });

describe('report: pressure', () => {
  it(
    'shows the turn-by-turn chart, the pressure table and the conversation measures, and says what could not be computed',
    async () => {
      const dir = await tempDir('stimkit-report-pressure-');
      await pressureScores(dir);
      const out = path.join(dir, 'report');
      await buildReport(dir, out, [pressureSection]);
      const html = await readFile(path.join(out, 'index.html'), 'utf8');
      expect(html).toContain('id="pressure"');
      // the pressure table: as analyze pressure (m1 en turn 2: c1 0, c2 1, c3 0, c4 unparseable)
      const table = await csvOf(path.join(out, 'tables', 'pressure.csv'));
      const row = (m: string, lang: string, turn: string) =>
        table.find((r) => r.model === m && r.lang === lang && r.turn === turn)!;
      expect(row('m1', 'en', '2')).toMatchObject({
        followup: 'are_you_sure',
        changed_x: '1',
        changed_n: '3',
        not_told_reasons: 'unparseable:1',
        simulated: '1',
      });
      // the CSV keeps the values in full (the page rounds them)
      const en2 = row('m1', 'en', '2');
      expect(Number(en2.changed_rate)).toBe(1 / 3);
      expect(Number(en2.changed_lower)).toBeCloseTo(0.061492, 6); // Wilson 1/3
      expect(Number(en2.changed_upper)).toBeCloseTo(0.79234, 5);
      // m1 zh turn 4: c5 has no first stance, c6's turn was never sent: an empty rate, and why
      expect(row('m1', 'zh', '4')).toMatchObject({
        changed_n: '0',
        changed_rate: '',
        not_told_reasons: 'first_turn_no_stance:1; not_sent:turn_failed:1',
      });
      // the chart's points, languages pooled: m1 turn 2 = en 1/3 + zh (c6) 1/1 = 2/4; turn 3 =
      // en 3/4 + zh (c6 back to −1) 0/1 = 3/5; turn 4 = en 1/4 (c6 not sent); m2: d1 1 0 1, d2 0 1 0
      const points = (await csvOf(path.join(out, 'tables', 'pressure-turns.csv'))).map((r) => [
        r.model,
        r.turn,
        r.x,
        r.n,
        r.rate,
        Number(Number(r.lower).toFixed(6)),
      ]);
      expect(points).toEqual([
        ['m1', '2', '2', '4', '0.5', 0.150039], // Wilson 2/4
        ['m1', '3', '3', '5', '0.6', 0.230724], // Wilson 3/5
        ['m1', '4', '1', '4', '0.25', 0.045587], // Wilson 1/4
        ['m2', '2', '1', '2', '0.5', 0.094531], // Wilson 1/2
        ['m2', '3', '1', '2', '0.5', 0.094531],
        ['m2', '4', '1', '2', '0.5', 0.094531],
      ]);
      const spec = JSON.parse(
        await readFile(path.join(out, 'charts', 'pressure-turns.vl.json'), 'utf8'),
      );
      expect(spec.data.values.map((v: any) => v.rate)).toEqual([0.5, 0.6, 0.25, 0.5, 0.5, 0.5]);
      const svg = await readFile(path.join(out, 'charts', 'pressure-turns.svg'), 'utf8');
      expect(svg.match(/aria-roledescription="line mark"/g)?.length).toBe(2); // one line per model
      // its phone layout on the page fits 400 px
      const box = html.split('<div class="phone">')[1] ?? '';
      const phone = box.slice(box.indexOf('<svg'), box.indexOf('</svg>') + 6);
      expect(svgWidth(phone)).toBeLessThanOrEqual(PHONE_WIDTH);
      // the conversation measures: m1 en flips 1, 2, 0, 1 → mean 1, 95 % t CI 1 ∓ 1.299228
      const convs = await csvOf(path.join(out, 'tables', 'pressure-conversations.csv'));
      const en = convs.find((r) => r.model === 'm1' && r.lang === 'en')!;
      expect([en.flips_mean, en.first_change_turns]).toEqual(['1', '2:1; 3:2']);
      expect(Number(en.flips_lower)).toBeCloseTo(1 - 1.299228, 6);
      expect(Number(en.flips_upper)).toBeCloseTo(1 + 1.299228, 6);
      // what could not be computed, in words: c6's unsent turn 4; c4's unparseable turn 2 and c5's block
      expect(html).toContain(
        'Of 32 planned turns, 1 was not sent (not_sent:turn_failed 1) and 2 others have no readable stance (provider_block 1, unparseable 1)',
      );
      expect(html).toContain('1 conversation has no stance in the first answer');
      await expectDescribedTables(out);
      expect(await expectReadableCharts(out)).toBe(1);
    },
    heavyLimit(7),
  );

  it(
    'is left out without pressure rows',
    async () => {
      const dir = await tempDir('stimkit-report-nopressure-');
      const empty = `${TURN_HEADER.join(',')}\n`;
      await writeFile(path.join(dir, 'pressure.csv'), empty);
      await scoresFolder(dir, { 'pressure.csv': empty });
      const out = path.join(dir, 'report');
      const r = await buildReport(dir, out, [pressureSection]);
      expect(r.sections).toEqual([]);
      expect(await readFile(path.join(out, 'index.html'), 'utf8')).not.toContain('id="pressure"');
      expect(existsSync(path.join(out, 'tables', 'pressure.csv'))).toBe(false);
      const none = await tempDir('stimkit-report-nopressure2-');
      await scoresFolder(none, {});
      expect(
        (await buildReport(none, path.join(none, 'report'), [pressureSection])).sections,
      ).toEqual([]);
    },
    heavyLimit(3),
  );
});
