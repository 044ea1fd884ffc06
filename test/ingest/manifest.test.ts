// Manifest problems: all reported at once, each with its line, field path, expected vs got and fix.
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { entriesSchemaText, ENTRIES_SCHEMA_FILE } from '../../src/ingest/json-schema.js';
import { runCli } from '../helpers/cli.js';
import { corpusWith, DEMO_DIR, entry, writeManifest } from './fixtures.js';

async function ingestJson(manifest: string, ...flags: string[]) {
  const run = await runCli(['ingest', manifest, '--json', ...flags]);
  return { ...run, out: run.json() };
}

describe('ingest: the entries schema', () => {
  it('reports every schema problem at once with YAML line, field, expected and got', async () => {
    const dir = await corpusWith('coffee.png');
    const file = path.join(dir, 'bad.entries.yaml');
    await writeFile(
      file,
      [
        'version: 1',
        'corpus: test',
        'entries:',
        '  - id: Bad_ID', // line 4
        '    title: {en: A, zh: B}',
        '    topic: t',
        '    sensitivity: medium', // line 7
        '    roles: [core, hero]', // line 8
        '    image: {file: coffee.png}',
        '    provenance: {license: CC0, credit: x, source_url: not a url}', // line 10
        '    expected_facts: [{id: f, en: x, zh: y}]',
        '    colour: red', // line 12
        '  - id: second',
        '    title: {en: A, zh: B}',
        '    topic: t',
        '    sensitivity: low',
        '    roles: [control]',
        '    provenance: {}', // image missing
        '',
      ].join('\n'),
    );
    const { code, out, stderr } = await ingestJson(file);
    expect(code).toBe(1);
    expect(out.ok).toBe(false);
    const problems = out.error.problems as Array<Record<string, unknown>>;
    const byField = Object.fromEntries(problems.map((p) => [p.field, p]));
    expect(byField['entries[0].id']).toMatchObject({
      code: 'E_INGEST_SCHEMA',
      line: 4,
      got: '"Bad_ID"',
    });
    expect(byField['entries[0].sensitivity']).toMatchObject({
      line: 7,
      expected: 'one of "high", "low"',
      got: '"medium"',
    });
    expect(byField['entries[0].roles[1]']).toMatchObject({ line: 8 });
    expect(byField['entries[0].provenance.source_url']).toMatchObject({ line: 10 });
    expect(byField['entries[0]']).toMatchObject({ line: 12, message: 'unknown field(s) "colour"' });
    expect(byField['entries[1].image']).toMatchObject({
      message: 'required field is missing',
      expected: 'object',
      got: 'nothing',
    });
    expect(problems.length).toBe(6);
    expect(stderr).toContain(
      'bad.entries.yaml:7: entries[0].sensitivity: value not allowed (expected one of "high", "low", got "medium")',
    );
  });

  it('reads an unquoted YAML year as the year, and says how to write anything else', async () => {
    const dir = await corpusWith('coffee.png');
    const file = path.join(dir, 'years.entries.yaml');
    const write = (date: string) =>
      writeFile(
        file,
        [
          'version: 1',
          'corpus: test',
          'entries:',
          '  - id: year',
          '    title: {en: A, zh: B}',
          '    topic: t',
          '    sensitivity: low',
          '    roles: [control]',
          '    image: {file: coffee.png}',
          `    provenance: {license: CC0, credit: x, date_taken: ${date}}`, // line 10
          '',
        ].join('\n'),
      );
    await write('1969');
    const ok = await ingestJson(file, '--out', path.join(dir, 'lock'));
    expect(ok.code, ok.stderr).toBe(0);
    const lock = await readFile(path.join(dir, 'lock', 'corpus.lock.json'), 'utf8');
    expect(JSON.parse(lock).entries[0].provenance.date_taken).toBe('1969');
    await write('1969.5');
    const bad = await ingestJson(file);
    expect(bad.code).toBe(1);
    expect(bad.out.error.problems[0]).toMatchObject({
      field: 'entries[0].provenance.date_taken',
      line: 10,
    });
    expect(bad.stderr).toContain(
      'a year as four digits (1969), or a date as text in quotes ("1969-07", "1969-07-20"); got the number 1969.5',
    );
  });

  it('reports YAML syntax errors with their line', async () => {
    const dir = await corpusWith();
    const file = path.join(dir, 'broken.entries.yaml');
    await writeFile(
      file,
      'version: 1\ncorpus: test\nentries:\n  - id: a\n    title: {en: "unclosed\n',
    );
    const { code, out } = await ingestJson(file);
    expect(code).toBe(1);
    expect(out.error.problems[0]).toMatchObject({ code: 'E_INGEST_SCHEMA', file });
    expect(out.error.problems[0].line).toBeGreaterThanOrEqual(5);
  });

  it('rejects a missing manifest (exit 1) and a missing argument or bad flag (exit 2)', async () => {
    const missing = await runCli(['ingest', '/nonexistent/x.yaml']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('/nonexistent/x.yaml: file not found');
    expect((await runCli(['ingest'])).code).toBe(2);
    expect((await runCli(['ingest', 'x.yaml', '--no-such-flag'])).code).toBe(2);
    expect((await runCli(['ingest', 'x.yaml', '--jobs', 'many'])).code).toBe(2);
  });

  it('keeps the committed JSON Schema in step with the zod schema', async () => {
    expect(await readFile(ENTRIES_SCHEMA_FILE, 'utf8')).toBe(entriesSchemaText());
  });
});

describe('ingest: rules across entries', () => {
  it('finds duplicate ids, core entries without facts in every language, anchors without names', async () => {
    const dir = await corpusWith('coffee.png', 'chelsea.png', 'camera.png', 'astronaut.png');
    const manifest = await writeManifest(dir, [
      entry('same', 'coffee.png'),
      entry('same', 'chelsea.png'),
      entry('no-facts', 'camera.png', { expected_facts: [] }),
      entry('half-facts', 'astronaut.png', {
        roles: ['core', 'anchor'],
        expected_facts: [{ id: 'f', en: 'English only.' }],
        anchor: { name: { en: 'Someone' } },
      }),
    ]);
    const { code, out } = await ingestJson(manifest);
    expect(code).toBe(1);
    const codes = out.problems.map((p: { code: string; entry: string }) => `${p.entry}:${p.code}`);
    expect(codes).toEqual(
      expect.arrayContaining([
        'same:E_INGEST_DUPLICATE_ID',
        'no-facts:E_INGEST_CORE_NO_FACTS',
        'half-facts:E_INGEST_FACT_LANGUAGE',
        'half-facts:E_INGEST_ANCHOR_NAME',
      ]),
    );
    const dup = out.problems.find((p: { code: string }) => p.code === 'E_INGEST_DUPLICATE_ID');
    expect(dup).toMatchObject({ field: 'entries[1].id', line: expect.any(Number) });
    const lang = out.problems.find((p: { code: string }) => p.code === 'E_INGEST_FACT_LANGUAGE');
    expect(lang.fix).toContain('expected_facts[0].zh');
  });

  it('warns about a missing licence or credit, and fails under --strict', async () => {
    const dir = await corpusWith('coffee.png');
    const manifest = await writeManifest(dir, [
      entry('unlicensed', 'coffee.png', { provenance: { archive: 'x' } }),
    ]);
    const lenient = await ingestJson(manifest);
    expect(lenient.code).toBe(0);
    expect(lenient.out.warnings).toBe(2);
    expect(lenient.out.problems.map((p: { code: string }) => p.code).sort()).toEqual([
      'W_INGEST_NO_CREDIT',
      'W_INGEST_NO_LICENSE',
    ]);
    const lock = JSON.parse(await readFile(path.join(dir, 'test.corpus.lock.json'), 'utf8'));
    expect(lock.warnings).toHaveLength(2);
    const strict = await ingestJson(manifest, '--strict');
    expect(strict.code).toBe(1);
    expect(strict.out.errors).toBe(2);
  });

  it('rejects the same bytes under two ids unless declared or allowed', async () => {
    const dir = await corpusWith('coffee.png');
    await copyFile(path.join(DEMO_DIR, 'coffee.png'), path.join(dir, 'coffee-copy.png'));
    const plain = await writeManifest(dir, [
      entry('a', 'coffee.png'),
      entry('b', 'coffee-copy.png'),
    ]);
    const rejected = await ingestJson(plain);
    expect(rejected.code).toBe(1);
    expect(rejected.out.problems[0]).toMatchObject({
      code: 'E_INGEST_DUPLICATE_IMAGE',
      entry: 'b',
    });
    expect((await ingestJson(plain, '--allow-duplicates')).code).toBe(0);
    const declared = await writeManifest(dir, [
      entry('a', 'coffee.png'),
      entry('b', 'coffee-copy.png', { image: { file: 'coffee-copy.png', same_as: 'a' } }),
    ]);
    expect((await ingestJson(declared)).code).toBe(0);
  });

  it('reports near-duplicates by perceptual hash', async () => {
    const dir = await corpusWith('coffee.png', 'chelsea.png');
    await sharp(path.join(DEMO_DIR, 'coffee.png'))
      .resize(450)
      .jpeg({ quality: 80 })
      .toFile(path.join(dir, 'coffee-small.jpg'));
    const manifest = await writeManifest(dir, [
      entry('a', 'coffee.png'),
      entry('b', 'coffee-small.jpg'),
      entry('c', 'chelsea.png'),
    ]);
    const { code, out } = await ingestJson(manifest);
    expect(code).toBe(0);
    expect(out.near_duplicates).toHaveLength(1);
    expect(out.near_duplicates[0]).toMatchObject({ a: 'a', b: 'b' });
    expect(out.near_duplicates[0].distance).toBeLessThanOrEqual(10);
    expect(out.problems.map((p: { code: string }) => p.code)).toEqual(['W_INGEST_NEAR_DUPLICATE']);
  });

  it('rejects image.same_as naming an unknown entry', async () => {
    const dir = await corpusWith('coffee.png');
    const manifest = await writeManifest(dir, [
      entry('a', 'coffee.png', { image: { file: 'coffee.png', same_as: 'ghost' } }),
    ]);
    const { code, out } = await ingestJson(manifest);
    expect(code).toBe(1);
    expect(out.problems[0]).toMatchObject({
      code: 'E_INGEST_SAME_AS',
      field: 'entries[0].image.same_as',
    });
  });
});

describe('ingest: manifests that are not manifests', () => {
  it('says in one line that an image is not a manifest', async () => {
    const run = await runCli(['ingest', path.join(DEMO_DIR, 'chelsea.png'), '--json']);
    expect(run.code).toBe(1);
    expect(run.json().error.problems).toHaveLength(1);
    expect(run.stderr).toContain('not a text file (it looks like a PNG image)');
    expect(run.stderr.length).toBeLessThan(400);
  });

  it('refuses a YAML alias bomb with a message, not a crash', async () => {
    const dir = await corpusWith();
    const file = path.join(dir, 'bomb.entries.yaml');
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(', ')}]`,
      );
    await writeFile(file, `${lines.join('\n')}\n`);
    const run = await runCli(['ingest', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot read the YAML: .*alias/i);
    expect(run.stderr).not.toContain('internal error');
  });

  it('names the entry in every message', async () => {
    const dir = await corpusWith('coffee.png');
    const manifest = await writeManifest(dir, [
      entry('e', 'coffee.png', { provenance: { credit: 'x' } }),
    ]);
    const run = await runCli(['ingest', manifest]);
    expect(run.stderr).toContain('entries[0].provenance: entry e: provenance.license is missing');
  });
});
