/** Progress without a terminal: a start line, then a line per tenth of the entries, with the failures so far. */
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/variants/progress.js';

describe('progress lines', () => {
  it('prints about ten lines for a long run', () => {
    const lines: string[] = [];
    const p = createProgress('variants', (t) => lines.push(t.trim()));
    p.start(40);
    for (let i = 1; i <= 40; i++)
      p.update({ done: i, total: 40, entry: `e${i}`, status: i === 3 ? 'failed' : 'ok' });
    p.stop();
    expect(lines[0]).toBe('variants: 40 entries to do');
    expect(lines.slice(1)).toHaveLength(10);
    expect(lines[1]).toBe('variants: 4/40 entries (1 failed)');
    expect(lines.at(-1)).toBe('variants: 40/40 entries (1 failed)');
  });
});
