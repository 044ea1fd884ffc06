/**
 * The licence table: the decisions the release relies on, and docs/release-licences.md saying
 * the same as the code for every licence text it names.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { licenceRule, ships } from '../../src/release/licences.js';
import { ROOT } from '../helpers/cli.js';

describe('licence table', () => {
  it.each([
    ['CC0-1.0', 'yes'],
    ['public domain', 'yes'],
    ['CC BY 4.0', 'yes'],
    ['cc-by-sa-4.0', 'conditions'],
    ['CC-BY-NC-4.0', 'conditions'],
    ['CC-BY-ND-4.0', 'no'],
    ['CC BY-NC-ND 3.0', 'no'],
    ['All Rights Reserved', 'no'],
    ['fair use', 'no'],
    ['', 'no'],
    ['some licence nobody listed', 'no'],
  ])('%s → %s', (text, decision) => {
    expect(licenceRule(text).decision).toBe(decision);
    expect(ships(licenceRule(text))).toBe(decision !== 'no');
  });

  it('docs/release-licences.md gives every licence it names the decision the code makes', async () => {
    const doc = await readFile(path.join(ROOT, 'docs', 'release-licences.md'), 'utf8');
    const rows = doc.split('\n').filter((l) => l.startsWith('| `'));
    expect(rows.length).toBeGreaterThan(8);
    let checked = 0;
    for (const row of rows) {
      const [names, decision] = row.split(' | ');
      const expected = decision!.replace(/\*/g, '');
      for (const m of names!.matchAll(/`([^`]+)`/g)) {
        expect(licenceRule(m[1]).decision, m[1]).toBe(expected);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(25);
  });
});
