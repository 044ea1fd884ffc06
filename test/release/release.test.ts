/**
 * `stimkit release` and `stimkit rehydrate` on a small study whose corpus holds an image under
 * CC-BY-ND-4.0 (no derivatives: neither it nor any variant may ship) and one under "all rights
 * reserved": the release ships no withheld image (every file scanned for their bytes),
 * croissant.json carries Croissant 1.1's required fields and RAI's (the checklist vendored from
 * the spec, fixtures/croissant/PROVENANCE.md), the Parquet files read back equal the CSVs, the
 * same inputs give the same bytes, and rehydrate rebuilds the withheld images byte-identical to
 * the sealed bundle's from the original files (the two withheld entries share one image,
 * `image.same_as`, which rehydrate must declare again to rebuild both). `export inspect` and
 * `compare` take the same study.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import path from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { parse, stringify } from 'yaml';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { readCsvObjects } from '../../src/core/csv.js';
import { listFiles } from '../../src/core/walk.js';
import { inspectValidator, unzipJson } from '../export/schema.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { releaseArgs, writeSimModels } from './sim-models.js';
import { writeFixtureProject } from '../bundle/fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 306 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(17) });

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
let dir: string;
let bundle: string;
let ledger: string;
let scores: string;
let withheldSha: string[];
let withheldBytes: Buffer[];
let withheldIds: string[];

async function release(out: string, meta = path.join(dir, 'release.yaml')) {
  return runCli(releaseArgs({ bundle, ledger, scores, meta, out }));
}

beforeAll(async () => {
  dir = await tempDir('stimkit-release-');
  const study = await writeFixtureProject(dir);
  const entriesFile = path.join(dir, 'mini.entries.yaml');
  const m = parse(await readFile(entriesFile, 'utf8'));
  // the synthetic entries share one provenance object (a YAML alias): give each its own
  m.entries[0].provenance = { ...m.entries[0].provenance, license: 'CC-BY-ND-4.0' };
  m.entries[3].provenance = { ...m.entries[3].provenance, license: 'all rights reserved' };
  // and the two withheld entries show one image (image.same_as): rehydrate rebuilds both from it
  m.entries[3].image = { file: m.entries[0].image.file, same_as: m.entries[0].id };
  await writeFile(entriesFile, stringify(m));
  const r = await bundleStudy(study, {
    out: path.join(dir, 'bundle'),
    work: path.join(dir, 'work'),
  });
  bundle = r.out!;
  const models = await writeSimModels(path.join(dir, 'models.yaml'));
  ledger = path.join(dir, 'ledger.sqlite');
  expect((await runCli(['run', bundle, '--models', models, '--ledger', ledger])).code).toBe(0);
  scores = path.join(dir, 'scores');
  expect(
    (await runCli(['score', '--bundle', bundle, '--ledger', ledger, '--out', scores])).code,
  ).toBe(0);
  await copyFile(path.join(FIXTURES, 'release.yaml'), path.join(dir, 'release.yaml'));
  const variants = JSON.parse(await readFile(path.join(bundle, 'data', 'variants.json'), 'utf8'));
  const ids = [m.entries[0].id, m.entries[3].id];
  withheldIds = ids;
  withheldSha = variants.records
    .filter((v: any) => ids.includes(v.entry))
    .map((v: any) => v.sha256);
  withheldBytes = await Promise.all(
    withheldSha.map((s) => readFile(path.join(bundle, 'data', 'images', `${s}.png`))),
  );
});

describe('release', () => {
  it('writes the template and refuses when release.yaml is missing', async () => {
    const meta = path.join(dir, 'release-new.yaml');
    const run = await release(path.join(dir, 'r0'), meta);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('E_RELEASE_META');
    expect(run.stderr).toContain('limitations');
    expect(await readFile(meta, 'utf8')).toContain('TODO');
    const again = await release(path.join(dir, 'r0'), meta);
    expect(again.stderr).toMatch(/social_impact: still the template/);
  });

  it('ships no withheld image nor any of its variants (every file scanned)', async () => {
    const out = path.join(dir, 'r1');
    const run = await release(out);
    expect(run.code).toBe(0);
    const j = run.json();
    expect(withheldSha.length).toBeGreaterThan(1);
    expect(j.counts.withheld).toBe(new Set(withheldSha).size);
    expect(j.withheld.map((w: any) => w.license).sort()).toEqual([
      'CC-BY-ND-4.0',
      'all rights reserved',
    ]);
    // each withheld entry's record is the bundle's entries.json record, key for key, in its order
    const sealed = JSON.parse(await readFile(path.join(bundle, 'data', 'entries.json'), 'utf8'));
    const header = JSON.parse(await readFile(path.join(out, 'release.json'), 'utf8'));
    for (const w of header.withheld)
      expect(JSON.stringify(w.record)).toBe(
        JSON.stringify(sealed.entries.find((e: { id: string }) => e.id === w.entry)),
      );
    const files = await listFiles(out);
    expect(files.some((f) => f.path.startsWith('images/'))).toBe(true);
    for (const f of files) {
      const bytes = await readFile(path.join(out, f.path));
      for (const [i, w] of withheldBytes.entries()) {
        expect(bytes.includes(w), `${f.path} holds withheld image ${withheldSha[i]}`).toBe(false);
      }
      expect(withheldSha.some((s) => f.path === `images/${s}.png`)).toBe(false);
    }
    const stimuli = readCsvObjects(await readFile(path.join(out, 'data', 'stimuli.csv'), 'utf8'));
    for (const s of stimuli.filter((r) => withheldSha.includes(r.sha256!))) {
      expect(s).toMatchObject({ available: 'false', file: '', license_decision: 'no' });
      expect(s.phash).toMatch(/^[0-9a-f]{16}$/);
      expect(s.source_sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.parse(s.recipe!)).toBeTypeOf('object');
    }
    const responses = readCsvObjects(
      await readFile(path.join(out, 'data', 'responses.csv'), 'utf8'),
    );
    const shows = (r: any) => r.images.split('|').some((s: string) => withheldSha.includes(s));
    expect(responses.filter(shows).every((r) => r.stimulus_available === 'false')).toBe(true);
    expect(responses.filter((r) => !shows(r)).every((r) => r.stimulus_available === 'true')).toBe(
      true,
    );
    const card = await readFile(path.join(out, 'README.md'), 'utf8');
    expect(card).toMatch(/^---\nlicense: other\nlicense_name: mixed\nlicense_link: LICENSES.md\n/);
    expect(await readFile(path.join(out, 'LICENSES.md'), 'utf8')).toContain(
      'CC-BY-ND-4.0 | no | no',
    );
  });

  it('croissant.json has Croissant 1.1’s required fields and the RAI fields (checklist from the spec)', async () => {
    const out = path.join(dir, 'r1');
    const c = JSON.parse(await readFile(path.join(out, 'croissant.json'), 'utf8'));
    const checklist = JSON.parse(
      await readFile(path.join(FIXTURES, 'croissant', 'checklist.json'), 'utf8'),
    );
    const context = await readFile(
      path.join(FIXTURES, 'croissant', 'appendix-1-context.jsonc'),
      'utf8',
    );
    // the spec's block has a trailing comma after its last member; JSON allows none
    const block = context.replace(/,(\s*)}\s*$/, '$1}');
    expect(c['@context']).toEqual(JSON.parse('{' + block + '}')['@context']);
    for (const field of checklist.dataset_required) expect(c, field).toHaveProperty([field]);
    expect(c['@type']).toBe('sc:Dataset');
    expect(c.conformsTo).toEqual(checklist.conformsTo);
    for (const field of checklist.rai_fields_written) {
      expect(checklist.rai_properties).toContain(field);
      expect(c[field], field).toBeTruthy();
    }
    const files = new Map((await listFiles(out)).map((f) => [f.path, f]));
    for (const d of c.distribution.filter((x: any) => x['@type'] === 'cr:FileObject')) {
      expect(d.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(files.has(d.contentUrl)).toBe(true);
    }
    expect(c.recordSet.map((r: any) => r['@id'])).toEqual(['stimuli', 'responses', 'scores']);
    for (const rs of c.recordSet)
      for (const f of rs.field) {
        expect(f.dataType).toMatch(/^sc:(Text|Integer|Float|Boolean)$/);
        expect(files.has(f.source.fileObject['@id'])).toBe(true);
      }
  });

  it('the Parquet files read back equal the CSVs', async () => {
    const out = path.join(dir, 'r1');
    for (const name of ['stimuli', 'responses', 'scores']) {
      const buf = await readFile(path.join(out, 'data', `${name}.parquet`));
      const rows = await parquetReadObjects({
        file: new Uint8Array(buf).buffer,
      });
      const csv = readCsvObjects(await readFile(path.join(out, 'data', `${name}.csv`), 'utf8'));
      expect(rows.length).toBe(csv.length);
      const text = (v: string | number | boolean | null | undefined) =>
        v === null || v === undefined ? '' : String(v);
      rows.forEach((r, i) =>
        expect(
          Object.fromEntries(
            Object.entries(r).map(([k, v]) => [k, text(v as string | number | boolean | null)]),
          ),
        ).toEqual(csv[i]),
      );
    }
  });

  it('same inputs give the same bytes', async () => {
    const out = path.join(dir, 'r2');
    expect((await release(out)).code).toBe(0);
    for (const f of await readdir(path.join(dir, 'r1'), { recursive: true })) {
      if (f.includes('.'))
        expect(await readFile(path.join(out, f)), f).toEqual(
          await readFile(path.join(dir, 'r1', f)),
        );
    }
  });

  it('refuses scores of other responses than the ledger run holds, and ratings of another bundle', async () => {
    // the same run label, another reply: the ledger run again after scoring
    const other = path.join(dir, 'rerun.sqlite');
    await copyFile(ledger, other);
    const db = new Database(other);
    const { trial_id } = db.prepare('SELECT trial_id FROM results LIMIT 1').get() as {
      trial_id: string;
    };
    db.prepare("UPDATE results SET response_text = 'Something else.' WHERE trial_id = ?").run(
      trial_id,
    );
    db.close();
    const out = path.join(dir, 'r-mix');
    const mixed = await runCli(
      releaseArgs({ bundle, ledger: other, scores, meta: path.join(dir, 'release.yaml'), out }),
    );
    expect(mixed.code).toBe(1);
    expect(mixed.json().error.code).toBe('E_RELEASE_SCORES_LEDGER');
    expect(mixed.json().error.problems[0].got).toContain(`trial ${trial_id}`);
    // ratings exported from another bundle's sample
    const labels = path.join(dir, 'labels-other');
    await mkdir(labels);
    await writeFile(
      path.join(labels, 'labels.csv'),
      `sample_item,trial_id,model,rater,bundle_digest\ni_1,t_1,model-a,r1,${'f'.repeat(64)}\n`,
    );
    const rated = await runCli([
      ...releaseArgs({ bundle, ledger, scores, meta: path.join(dir, 'release.yaml'), out }),
      '--labels',
      labels,
    ]);
    expect(rated.code).toBe(1);
    expect(rated.json().error.code).toBe('E_RELEASE_LABELS');
    expect(rated.json().error.problems[0]).toMatchObject({ got: 'f'.repeat(64) });
    expect(existsSync(out)).toBe(false);
  });

  it('rehydrate refuses a folder without the sources, and a rebuilt image that differs', async () => {
    const run = await runCli([
      'rehydrate',
      path.join(dir, 'r2'),
      '--images',
      path.join(dir, 'scores'),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('E_REHYDRATE_SOURCE');
    const header = path.join(dir, 'r2', 'release.json');
    const h = JSON.parse(await readFile(header, 'utf8'));
    const real = h.withheld[0].images[0].sha256;
    h.withheld[0].images[0].sha256 = '0'.repeat(64);
    await writeFile(header, JSON.stringify(h));
    const bad = await runCli([
      'rehydrate',
      path.join(dir, 'r2'),
      '--images',
      path.join(dir, 'images'),
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('E_REHYDRATE_MISMATCH');
    expect(bad.stderr).toContain('0'.repeat(64));
    expect(bad.stderr).toContain(`got ${real}`);
    expect(bad.stderr).toContain(`images/${'0'.repeat(64)}.png`);
  });

  it('rehydrate rebuilds the withheld images from the originals, byte-identical to the bundle', async () => {
    const out = path.join(dir, 'r1');
    const run = await runCli(['rehydrate', out, '--images', path.join(dir, 'images'), '--json']);
    expect(run.code, run.stderr).toBe(0);
    const images = run.json().images as Array<{ entry: string; code: string; sha256: string }>;
    expect(images.map((i) => i.sha256).sort()).toEqual([...withheldSha].sort());
    // Both withheld entries were rebuilt from their one shared source file: each A0 is its bytes.
    const a0 = images.filter((i) => i.code === 'A0');
    expect(a0.map((i) => i.entry).sort()).toEqual([...withheldIds].sort());
    expect(new Set(a0.map((i) => i.sha256)).size).toBe(1);
    for (const [i, sha] of withheldSha.entries())
      expect(await readFile(path.join(out, 'images', `${sha}.png`))).toEqual(withheldBytes[i]);
  });

  it('export inspect and compare take the same study: logs valid against Inspect’s schema, nothing changed against itself', async () => {
    const inspect = path.join(dir, 'inspect');
    const exp = await runCli([
      'export',
      'inspect',
      '--bundle',
      bundle,
      '--ledger',
      ledger,
      '--scores',
      scores,
      '--out',
      inspect,
    ]);
    expect(exp.code, exp.stderr).toBe(0);
    const evals = (await readdir(inspect)).filter((f) => f.endsWith('.eval'));
    expect(evals.length).toBeGreaterThan(0);
    for (const f of evals) {
      const files = unzipJson(await readFile(path.join(inspect, f)));
      const header = inspectValidator('EvalLog');
      expect(header(files.get('header.json')) ? [] : header.errors, f).toEqual([]);
      const sample = inspectValidator('EvalSample');
      for (const [entry, value] of files)
        if (entry.startsWith('samples/'))
          expect(sample(value) ? [] : sample.errors, `${f} ${entry}`).toEqual([]);
    }
    const same = await runCli(['compare', scores, scores, '--json']);
    expect(same.code, same.stderr).toBe(0);
    expect(same.json().counts).toMatchObject({ changed: 0, only_a: 0, only_b: 0 });
  });
});
