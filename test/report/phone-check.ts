/**
 * The report at phone width, measured in the page: every figure (chart or image strip) and every
 * box inside it fits its width (scrollWidth ≤ clientWidth); what scrolls sideways is a data table,
 * and it says so (its hint shows and names a table).
 */
import type { Page } from 'playwright-core';

/** One visible element that is wider than its box. */
export interface Overflow {
  id: string;
  scrollWidth: number;
  clientWidth: number;
  /** For a `.wide` box: holds a table, and its hint shows and says "table". */
  table?: boolean;
  hint?: boolean;
}

/** Plain JavaScript (the tests are type-checked without the DOM library). */
const MEASURE = `(() => {
  const visible = (e) => e.offsetParent !== null || e.tagName === 'FIGURE' && e.getClientRects().length > 0;
  const over = (e) => e.scrollWidth > e.clientWidth + 1;
  const row = (e) => ({ id: e.id || (e.closest('[id]') || {}).id || e.tagName, scrollWidth: e.scrollWidth, clientWidth: e.clientWidth });
  const figures = [...document.querySelectorAll('figure')].filter(visible);
  const inFigures = figures.flatMap((f) => [f, ...f.querySelectorAll('*')]).filter((e) => e instanceof HTMLElement && visible(e) && over(e)).map(row);
  const boxes = [...document.querySelectorAll('.wide')].filter((b) => visible(b) && over(b) && !b.closest('figure')).map((b) => {
    const hint = document.getElementById('hint-' + b.id);
    return { ...row(b), table: b.querySelector('table') !== null, hint: hint !== null && hint.offsetHeight > 0 && /table/.test(hint.textContent) };
  });
  return { figures: figures.length, inFigures, boxes };
})()`;

/** What of the page at the current window is wider than its box. */
export function phoneOverflows(
  page: Page,
): Promise<{ figures: number; inFigures: Overflow[]; boxes: Overflow[] }> {
  return page.evaluate(MEASURE);
}
