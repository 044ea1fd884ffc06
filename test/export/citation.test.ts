/**
 * stimkit itself, citable and licensed: LICENSE, CITATION.cff (the required fields of CFF 1.2.0)
 * and CHANGELOG.md are in the repository and in the npm package, and the version the citation
 * names is package.json's, `stimkit --version --json`'s and the `tool` field of the artifacts.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { TOOL } from '../../src/core/tool.js';
import { ROOT, runCli } from '../helpers/cli.js';

// Limits that grow with the load (test/helpers/limits.ts): 126 s a test on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(7) });

const read = (f: string) => readFile(path.join(ROOT, f), 'utf8');
const pkg = async () => JSON.parse(await read('package.json'));

/** The keys CFF 1.2.0 requires of a citation file (its schema's `required`). */
const CFF_REQUIRED = ['authors', 'cff-version', 'message', 'title'];

describe('LICENSE, CITATION.cff, CHANGELOG.md', () => {
  it('LICENSE is the MIT licence package.json names', async () => {
    const text = await read('LICENSE');
    expect((await pkg()).license).toBe('MIT');
    expect(text.split('\n')[0]).toBe('MIT License');
    expect(text).toContain('Copyright (c) the stimkit authors');
    expect(text).toContain('THE SOFTWARE IS PROVIDED "AS IS"');
  });

  it('CITATION.cff has the fields CFF 1.2.0 requires, and the version and licence of package.json', async () => {
    const cff = parse(await read('CITATION.cff'));
    const p = await pkg();
    for (const k of CFF_REQUIRED) expect(cff[k], k).toBeTruthy();
    expect(cff['cff-version']).toBe('1.2.0');
    expect(cff.type).toBe('software');
    expect(cff.version).toBe(p.version);
    expect(cff.license).toBe(p.license);
    expect(Array.isArray(cff.authors) && cff.authors.length > 0).toBe(true);
    for (const a of cff.authors) expect(typeof (a.name ?? a['family-names'])).toBe('string');
    if (cff['repository-code'] !== undefined) expect(cff['repository-code']).toMatch(/^https:\/\//);
  });

  it("the version is one: package.json's, CITATION.cff's, --version --json's and the artifacts' tool field", async () => {
    const p = await pkg();
    const cff = parse(await read('CITATION.cff'));
    const r = await runCli(['--version', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toEqual({ name: 'stimkit', version: p.version });
    expect(TOOL).toEqual({ name: p.name, version: p.version });
    expect(cff.version).toBe(TOOL.version);
    const plain = await runCli(['--version']);
    expect(plain.stdout.trim()).toBe(p.version);
  });

  it('CHANGELOG.md keeps an Unreleased section and one for the current version', async () => {
    const text = await read('CHANGELOG.md');
    expect(text).toContain('## [Unreleased]');
    expect(text).toContain(`## [${(await pkg()).version}]`);
    expect(text).toContain('`stimkit.ledger`) version 1 → 2');
  });

  // That the packed tarball holds them is checked by the packaging tests (`npm run test:package`,
  // test/package/install.test.ts), on the tarball they pack.
  it('package.json ships all three', async () => {
    expect((await pkg()).files).toEqual(
      expect.arrayContaining(['LICENSE', 'CITATION.cff', 'CHANGELOG.md']),
    );
  });
});
