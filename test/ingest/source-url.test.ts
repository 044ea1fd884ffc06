/**
 * `provenance.source_url` accepts only http(s) addresses: `javascript:`, `data:`, `file:` and
 * other schemes would become links on the review and view pages. The error names the field, its
 * line and what was given.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Provenance } from '../../src/ingest/schema.js';
import { runCli } from '../helpers/cli.js';
import { corpusWith, entry, writeManifest } from './fixtures.js';

describe('entries: source_url', () => {
  it('accepts http and https addresses', () => {
    for (const url of ['https://commons.wikimedia.org/wiki/File:X.jpg', 'http://openclipart.org/a'])
      expect(Provenance.safeParse({ source_url: url }).success, url).toBe(true);
  });

  it('refuses every other scheme with a message that says what is allowed', () => {
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,<b>x</b>',
      'file:///etc/passwd',
      'ftp://example.org/x.jpg',
      'vbscript:msgbox(1)',
    ]) {
      const r = Provenance.safeParse({ source_url: url });
      expect(r.success, url).toBe(false);
      expect(r.error!.issues[0]!.message).toContain('http:// or https://');
    }
  });

  it('ingest and check reject a javascript: source_url naming the line and field', async () => {
    const dir = await corpusWith('coffee.png');
    const file = await writeManifest(dir, [
      entry('a', 'coffee.png', {
        provenance: { license: 'CC0-1.0', source_url: 'javascript:alert(1)' },
      }),
    ]);
    for (const args of [
      ['ingest', file, '--out', path.join(dir, 'out')],
      ['check', file],
    ]) {
      const run = await runCli([...args, '--json']);
      expect(run.code, args[0]).toBe(1);
      const problems = run.json().error?.problems ?? run.json().files?.[0]?.problems;
      expect(JSON.stringify(problems), args[0]).toContain('provenance.source_url');
      expect(run.stderr, args[0]).toContain('javascript:alert(1)');
      expect(run.stderr, args[0]).toContain('http:// or https://');
    }
  });
});
