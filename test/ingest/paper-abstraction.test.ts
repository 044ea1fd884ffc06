// The audit paper's 14 abstraction-probe entries (Table A7): images are supplied by the user, so
// the manifest must ingest with --allow-missing and list every image as missing.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

// Table A7 of the audit paper, in its order.
const TABLE_A7 = [
  'abs-hunger-strike-1989',
  'abs-mass-pcr-testing',
  'abs-chai-ling',
  'abs-xi-jinping-2019',
  'abs-agnes-chow',
  'abs-control-cat-portrait',
  'abs-control-child-playing',
  'abs-control-formal-portrait',
  'abs-control-lighthouse',
  'abs-control-marathon-crowd',
  'abs-control-queue-line',
  'abs-control-runner-road',
  'abs-lai-inauguration',
  'abs-urumqi-qiwu',
];

describe('manifests/paper-abstraction.entries.yaml', () => {
  const manifest = path.join(ROOT, 'manifests', 'paper-abstraction.entries.yaml');

  it('holds the 14 base images of Table A7, all in the abstraction role, 7 of them controls', async () => {
    const out = await tempDir();
    const run = await runCli(['ingest', manifest, '--allow-missing', '--out', out, '--json']);
    expect(run.code).toBe(0);
    const j = run.json();
    expect([...j.missing].sort()).toEqual([...TABLE_A7].sort());
    expect(j.images).toEqual({ ok: 0, missing: 14, failed: 0 });
    const roles = (role: string) =>
      j.counts
        .filter((c: { role: string }) => c.role === role)
        .reduce((n: number, c: { entries: number }) => n + c.entries, 0);
    expect(roles('abstraction')).toBe(14);
    expect(roles('control')).toBe(7);
  });

  it('fails without --allow-missing, saying once that the images folder is not there', async () => {
    const out = await tempDir();
    const run = await runCli(['ingest', manifest, '--out', out, '--json']);
    expect(run.code).toBe(1);
    const problems = run.json().problems;
    expect(
      problems.filter((p: { code: string }) => p.code === 'E_INGEST_IMAGE_MISSING'),
    ).toHaveLength(0);
    const root = problems.filter((p: { code: string }) => p.code === 'E_INGEST_IMAGES_ROOT');
    expect(root).toHaveLength(1);
    expect(root[0]).toMatchObject({ field: 'images', line: expect.any(Number) });
    expect(root[0].fix).toContain('--images');
  });
});
