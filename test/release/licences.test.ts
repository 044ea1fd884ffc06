/**
 * The licence table: the decisions the release relies on, and docs/release-licences.md saying
 * the same as the code for every licence text it names.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { licenceRule, shippedImages, ships } from '../../src/release/licences.js';
import { stimuliTable } from '../../src/release/tables.js';
import { licencesMd } from '../../src/release/card.js';
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
    ['constructor', 'no'],
    ['toString', 'no'],
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

describe('images two entries share', () => {
  // dscovr shows the bytes of rocket (image.same_as) under a licence that forbids redistribution
  const v = (entry: string, code: string, name: string, sha: string) => ({
    ...{ entry, code, name, sha256: sha.repeat(64) },
    ...{ width: 4, height: 4, params: {} },
  });
  const variants = [
    v('rocket', 'A0', 'original', 'a'),
    v('rocket', 'A2', 'grayscale', 'b'),
    v('dscovr', 'A0', 'original', 'a'),
    v('other', 'A0', 'original', 'c'),
  ];
  const licences: Record<string, string> = {
    rocket: 'CC0-1.0',
    dscovr: 'CC-BY-ND-4.0',
    other: 'CC BY 4.0',
  };
  const shipped = shippedImages(variants, (e) => licences[e]);

  it('ship only when every entry showing them may redistribute them', () => {
    expect([...shipped].sort()).toEqual(['b'.repeat(64), 'c'.repeat(64)]);
  });
  it('are listed unavailable for the entry whose own licence allows them, saying why', () => {
    const entries = new Map(
      Object.entries(licences).map(([id, license]) => [id, { id, provenance: { license } }]),
    );
    const t = stimuliTable(entries as never, variants as never, new Map(), shipped);
    expect(t.key).toEqual(['entry', 'variant']);
    const col = (name: string) => t.columns.findIndex((c) => c.name === name);
    const rocketA0 = t.rows[0]!;
    expect(rocketA0[col('available')]).toBe(false);
    expect(rocketA0[col('file')]).toBeNull();
    expect(rocketA0[col('license_decision')]).toBe('no');
    expect(rocketA0[col('license_note')]).toContain("also shown as another entry's (dscovr)");
    expect(t.rows[1]![col('available')]).toBe(true);
    expect(t.rows[3]![col('file')]).toBe(`images/${'c'.repeat(64)}.png`);
  });

  it('are counted in LICENSES.md as withheld for the entry whose own licence allows them', () => {
    const entry = (id: string, license: string, images: number, kept: number) => ({
      ...{ entry: id, license, rule: licenceRule(license), credit: null, source_url: null },
      ...{ images, shipped: kept },
    });
    const md = licencesMd({ license: 'CC-BY-4.0' } as never, [
      entry('rocket', 'CC0-1.0', 2, 1),
      entry('dscovr', 'CC-BY-ND-4.0', 1, 0),
      entry('other', 'CC BY 4.0', 1, 1),
    ]);
    expect(md).toContain(
      "| rocket | CC0-1.0 | yes | 1 of 2 (the others are also another entry's images",
    );
    expect(md).toContain('| dscovr | CC-BY-ND-4.0 | no | no |');
    expect(md).toContain('| other | CC BY 4.0 | yes | yes (1) |');
  });
});
