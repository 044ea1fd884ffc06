/**
 * The phone layouts of the report's charts, as specs and drawn: panels by column and row wrapped
 * one under another, panels by row only narrowed, a heat map transposed, a long title broken; each
 * drawn within the phone's width. (The page at 400 px is measured in Chromium: browser.test.ts and
 * test/demo/demo.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { renderSvg } from '../../src/report/chart.js';
import { PHONE_WIDTH, phoneSpec } from '../../src/report/phone.js';
import { svgWidth } from '../../src/report/writer.js';

const values = ['a', 'b', 'c'].flatMap((model) =>
  ['d1', 'd4'].flatMap((dimension) =>
    ['en', 'zh'].map((lang) => ({
      model,
      dimension,
      lang,
      rate: 0.1,
      topic: `${dimension}-${lang}`,
    })),
  ),
);
const panel = {
  width: 260,
  height: { step: 16 },
  mark: 'point',
  encoding: {
    y: { field: 'model', type: 'nominal' },
    x: { field: 'rate', type: 'quantitative' },
  },
};

describe('phone layouts', () => {
  it('wraps panels by column and row one under another, each headed "column · row"', async () => {
    const wide = {
      title: { text: 'State-aligned framing (D4) and refusal (D1)' },
      data: { values },
      facet: {
        column: { field: 'dimension', type: 'nominal' },
        row: { field: 'lang', type: 'nominal' },
      },
      spec: panel,
    };
    const phone = phoneSpec(wide);
    expect(phone).toMatchObject({
      title: { text: ['State-aligned framing (D4) and', 'refusal (D1)'] },
      transform: [{ calculate: 'datum["dimension"] + \' · \' + datum["lang"]', as: 'panel' }],
      facet: { field: 'panel' },
      columns: 1,
      spec: { width: 200 },
    });
    const svg = await renderSvg(phone);
    expect(svgWidth(svg)).toBeLessThanOrEqual(PHONE_WIDTH);
    expect(svg).toContain('d4 · zh');
    expect(svgWidth(await renderSvg(wide))).toBeGreaterThan(PHONE_WIDTH);
  });

  it('narrows panels by row only, and transposes a heat map', async () => {
    const rows = phoneSpec({ data: { values }, facet: { row: { field: 'lang' } }, spec: panel });
    expect(rows).toMatchObject({ facet: { row: { field: 'lang' } }, spec: { width: 200 } });
    expect(svgWidth(await renderSvg(rows))).toBeLessThanOrEqual(PHONE_WIDTH);
    const heat = {
      data: { values },
      width: { step: 70 },
      height: { step: 26 },
      encoding: {
        x: { field: 'topic', type: 'nominal', axis: { labelAngle: -30 } },
        y: { field: 'model', type: 'nominal' },
      },
      mark: 'rect',
    };
    const phone = phoneSpec(heat);
    expect(phone).toMatchObject({
      encoding: { x: { field: 'model' }, y: { field: 'topic', axis: { labelAngle: 0 } } },
      autosize: { type: 'fit-x', contains: 'padding' },
    });
    expect(svgWidth(await renderSvg(phone))).toBeLessThanOrEqual(PHONE_WIDTH);
  });
});
