/**
 * What the audit hands on, end to end and offline (demo bundle, simulated respondents, two
 * simulated judges): the report's abstraction ladder with variant thumbnails taken from the
 * scored bundle (found through score.json, or --bundle; a missing bundle or an altered image said
 * in a sentence), validation.json listed in score.json with its inputs' hashes, and the audit's
 * judges.csv loaded as is by the rater app's review mode (over HTTP, no browser).
 */
import { existsSync } from 'node:fs';
import { cp, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { stringify } from 'yaml';
import { correctPrevalence } from '../../src/audit/attenuation.js';
import { trueLabels } from '../../src/audit/sim-judge.js';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { sha256 } from '../../src/core/fsio.js';
import { loadBundle } from '../../src/label/bundle.js';
import { serveLabels } from '../../src/label/serve.js';
import { openLedger } from '../../src/ledger/index.js';
import { parseCsv } from '../../src/core/csv.js';
import { SIM_PRESETS } from '../../src/sim/presets.js';
import { writeReport } from '../../src/report/folder.js';
import { auditLadderSection } from '../../src/report/sections/audit-ladder.js';
import { auditValidationSection } from '../../src/report/sections/audit-validation.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { DEMO_VARIANTS_LOCK, requireCommitted } from '../helpers/committed.js';
import { tempDir } from '../helpers/tmp.js';

// Limits that grow with the load (test/helpers/limits.ts): 180 s a test, 612 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(10), hookTimeout: heavyLimit(34) });

const DEMO = path.join(ROOT, 'manifests', 'demo.study.yaml');
/**
 * A report of the one section a test is about, built in-process (writeReport: the same folder
 * swap and the same page and report.json as `stimkit report`, with only that section). A full
 * report costs about 2.5 CPU-s, nearly all of it in the other sections' charts (vega, librsvg,
 * PNG): the thumbnails, the bundle's sentences and the validation's notes are made by these
 * sections alone, so a page of that section proves what a page of all of them would. The full
 * report through the command line is the last one of this file (and test/report/ has its flags).
 */
const sectionReport = (
  section: typeof auditLadderSection,
  out: string,
  options: Parameters<typeof writeReport>[3] = {},
) => writeReport(scores, out, [section], options);
const preset = (n: string) => SIM_PRESETS.find((p) => p.name === n)!.sim;
const rowsOf = (text: string) => {
  const { header, rows } = parseCsv(text);
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
};

let dir: string;
let bundle: string;
let ledger: string;
let models: string;
let scores: string;

beforeAll(async () => {
  requireCommitted(DEMO_VARIANTS_LOCK);
  dir = await tempDir('stimkit-audit-outputs-');
  bundle = path.join(dir, 'bundle');
  await bundleStudy(DEMO, { out: bundle, work: path.join(dir, 'work') });
  models = path.join(dir, 'models.yaml');
  await writeFile(
    models,
    stringify({
      format: 'stimkit.models',
      version: 1,
      models: [
        { name: 'sim-reframer', provider: 'sim', origin: 'CN', sim: preset('sim-reframer') },
        {
          name: 'sim-plain',
          provider: 'sim',
          origin: 'US',
          sim: { seed: 9, vlm: { reframe: { high: 0.03, low: 0.02 } } },
        },
        { name: 'judge-a', provider: 'sim', role: 'judge', sim: { seed: 1 } },
        { name: 'judge-b', provider: 'sim', role: 'judge', sim: { seed: 2 } },
      ],
    }),
  );
  ledger = path.join(dir, 'run.sqlite');
  const run = await runCli(['run', bundle, '--models', models, '--ledger', ledger, '--json']);
  expect(run.code, run.stderr).toBe(0);
  scores = path.join(dir, 'scores');
  const s = await runCli([
    'score',
    '--bundle',
    bundle,
    '--ledger',
    ledger,
    '--models',
    models,
    '--judge',
    'judge-a',
    '--judge',
    'judge-b',
    '--out',
    scores,
    '--json',
  ]);
  expect(s.code, s.stderr).toBe(0);
});

describe('report: the abstraction ladder with variant thumbnails', () => {
  it('shows a strip of A0–A6 thumbnails per abstraction entry, from the bundle score.json names, with their provenance', async () => {
    const out = path.join(dir, 'report');
    expect((await sectionReport(auditLadderSection, out)).sections).toEqual(['audit-ladder']);
    const html = await readFile(path.join(out, 'index.html'), 'utf8');
    const b = await loadBundle(bundle);
    const audit = rowsOf(await readFile(path.join(scores, 'audit.csv'), 'utf8')).filter(
      (x) => x.paradigm === 'abstraction',
    );
    const entries = [...new Set(audit.map((x) => x.entry!))].sort();
    expect(entries.length).toBeGreaterThan(0);
    const prov = rowsOf(
      await readFile(path.join(out, 'tables', 'audit-ladder-thumbs.csv'), 'utf8'),
    );
    expect(prov.map((p) => `${p.entry} ${p.variant}`)).toEqual(
      entries
        .slice(0, 4)
        .flatMap((e) => ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6'].map((v) => `${e} ${v}`)),
    );
    for (const p of prov) {
      const rec = b.variants.find((v) => v.entry === p.entry && v.code === p.variant)!;
      expect(p.source_sha256).toBe(rec.sha256);
      expect(sha256(await readFile(path.join(bundle, 'data', 'images', `${rec.sha256}.png`)))).toBe(
        p.source_sha256,
      );
      const thumb = await readFile(path.join(out, p.thumb_file!));
      expect(sha256(thumb)).toBe(p.thumb_sha256);
      const meta = await sharp(thumb).metadata();
      expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(128);
      expect([meta.width, meta.height]).toEqual([Number(p.thumb_width), Number(p.thumb_height)]);
      expect(thumb.length).toBeLessThan(20_000);
      // the caption's count is that entry × variant's D4 count among judged responses
      const cell = audit.filter(
        (x) => x.entry === p.entry && x.variant === p.variant && x.d4_state_aligned !== '',
      );
      expect([Number(p.d4_x), Number(p.d4_n)]).toEqual([
        cell.filter((x) => x.d4_state_aligned === '1').length,
        cell.length,
      ]);
      expect(html).toContain(
        `<img src="${p.thumb_file}" width="${p.thumb_width}" height="${p.thumb_height}"`,
      );
    }
    expect(html).not.toMatch(/(src|href)="(https?:|\/|file:)/i);
    const report = JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8'));
    expect(report.inputs).toContainEqual({
      file: '../bundle/manifest-sha256.txt',
      sha256: b.digest,
    });
    expect(report.files.map((f: { file: string }) => f.file)).toEqual(
      expect.arrayContaining(prov.map((p) => p.thumb_file)),
    );
    // same scores, same bundle → same bytes
    const again = path.join(dir, 'report-again');
    await sectionReport(auditLadderSection, again);
    for (const p of prov)
      expect(await readFile(path.join(again, p.thumb_file!))).toEqual(
        await readFile(path.join(out, p.thumb_file!)),
      );
    expect(await readFile(path.join(again, 'index.html'), 'utf8')).toBe(html);
  });

  it('says why in a sentence when the bundle moved, finds it with --bundle, and skips an altered image', async () => {
    const moved = path.join(dir, 'bundle-moved');
    await rename(bundle, moved);
    try {
      const out = path.join(dir, 'report-moved');
      // Found with --bundle: a copy of the bundle with one image altered (one report shows both
      // that --bundle finds the images and that an altered one is skipped).
      const altered = path.join(dir, 'bundle-altered');
      await cp(moved, altered, { recursive: true });
      const b = await loadBundle(altered);
      const victim = b.variants.find((v) => v.code === 'A3')!;
      await writeFile(
        path.join(altered, 'data', 'images', `${victim.sha256}.png`),
        await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
          .png()
          .toBuffer(),
      );
      await sectionReport(auditLadderSection, out, { bundle: altered });
      expect((await readdir(path.join(out, 'thumbs'))).length).toBeGreaterThan(0);
      const html2 = await readFile(path.join(out, 'index.html'), 'utf8');
      expect(html2).toContain('<img src="thumbs/');
      expect(html2).toContain(
        `${victim.entry} A3: image ${victim.sha256.slice(0, 12)}… does not match its digest`,
      );
      const prov = rowsOf(
        await readFile(path.join(out, 'tables', 'audit-ladder-thumbs.csv'), 'utf8'),
      );
      expect(prov.some((p) => p.source_sha256 === victim.sha256)).toBe(false);
      expect(prov.length).toBeGreaterThan(0);

      // Without --bundle the moved bundle is not found: a sentence says why, and the same folder
      // built again without thumbnails keeps none of the earlier ones.
      await sectionReport(auditLadderSection, out);
      const html = await readFile(path.join(out, 'index.html'), 'utf8');
      expect(html).toContain(
        'Variant thumbnails are not shown: the bundle recorded in score.json (../bundle, relative to the scores folder) is not there',
      );
      expect(html).toContain('stimkit report --bundle DIR');
      expect(existsSync(path.join(out, 'thumbs'))).toBe(false);
    } finally {
      await rename(moved, bundle);
    }
  });
});

describe('validate: validation.json is listed in score.json', () => {
  let labels: string;
  beforeAll(async () => {
    const l = openLedger(ledger);
    const vlm = [...l.results()]
      .filter((r) => r.truth && (r.truth as { kind?: string }).kind === 'vlm' && r.text !== null)
      .slice(0, 40);
    l.close();
    const s = (v: boolean | null) => (v === null ? 'na' : String(v));
    const lines = [
      'trial_id,model,rater,d1_refusal,d2_integrity,d3_grounding,d4_state_aligned,d5_language',
    ];
    for (const r of vlm) {
      const t = trueLabels(r.truth, r.trial.paradigm !== 'comment-text')!;
      for (const rater of ['a', 'b'])
        lines.push(
          [r.trial_id, r.model, rater, s(t.d1), s(t.d2), s(t.d3), s(t.d4), s(t.d5)].join(','),
        );
    }
    labels = path.join(dir, 'labels.csv');
    await writeFile(labels, `${lines.join('\n')}\n`);
  });

  // The report that shows a listed validation.json is the last one of the next test (one report
  // less to write: the report is the costly step of this file).
  it('records the sha256 of scores.jsonl and of the labels, and lists itself in score.json', async () => {
    const r = await runCli(['validate', '--scores', scores, '--labels', labels, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().listed).toBe(true);
    const text = await readFile(path.join(scores, 'validation.json'), 'utf8');
    const v = JSON.parse(text);
    const header = JSON.parse(await readFile(path.join(scores, 'score.json'), 'utf8'));
    const listed = (f: string) => header.files.find((x: { file: string }) => x.file === f);
    expect(listed('validation.json')).toEqual({
      file: 'validation.json',
      rows: 40,
      sha256: sha256(text),
    });
    expect(v.inputs).toEqual([
      { role: 'scores', file: 'scores.jsonl', sha256: listed('scores.jsonl').sha256 },
      { role: 'labels', file: '../labels.csv', sha256: sha256(await readFile(labels)) },
    ]);
    expect(v.tool.name).toBe('stimkit');
    // validating again replaces the entry (one entry, new hash if anything changed)
    expect(
      (await runCli(['validate', '--scores', scores, '--labels', labels, '--json'])).code,
    ).toBe(0);
    const h2 = JSON.parse(await readFile(path.join(scores, 'score.json'), 'utf8'));
    expect(h2.files.filter((x: { file: string }) => x.file === 'validation.json')).toHaveLength(1);
  });

  it('writes elsewhere without listing; the report refuses an altered validation.json, ignores one of older scores and shows a listed one', async () => {
    const elsewhere = path.join(dir, 'v-elsewhere.json');
    const r = await runCli([
      'validate',
      '--scores',
      scores,
      '--labels',
      labels,
      '--out',
      elsewhere,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().listed).toBe(false);
    expect(JSON.parse(await readFile(elsewhere, 'utf8')).inputs[0].file).toBe(
      'scores/scores.jsonl',
    );

    const vfile = path.join(scores, 'validation.json');
    const good = await readFile(vfile, 'utf8');
    await writeFile(vfile, good.replace('"items": 40', '"items": 41'));
    await expect(
      sectionReport(auditValidationSection, path.join(dir, 'report-bad')),
    ).rejects.toMatchObject({ code: 'E_REPORT_SCORES' });
    // listed with its sha256 but not a validation.json of this version: refused, naming the field
    const header = path.join(scores, 'score.json');
    const headerText = await readFile(header, 'utf8');
    const older = JSON.parse(good);
    delete older.dimensions[0].raters.gwet_ac1;
    const olderText = JSON.stringify(older);
    const listed = JSON.parse(headerText);
    listed.files.find((f: { file: string }) => f.file === 'validation.json').sha256 =
      sha256(olderText);
    await writeFile(vfile, olderText);
    await writeFile(header, JSON.stringify(listed));
    await expect(
      sectionReport(auditValidationSection, path.join(dir, 'report-old')),
    ).rejects.toMatchObject({
      code: 'E_REPORT_SCORES',
      problems: [expect.objectContaining({ field: 'dimensions.0.raters.gwet_ac1' })],
    });
    await writeFile(header, headerText);
    await writeFile(vfile, good);

    // scoring again replaces the scores folder whole: the validation of the old scores goes with it
    const again = await runCli([
      'score',
      '--bundle',
      bundle,
      '--ledger',
      ledger,
      '--models',
      models,
      '--judge',
      'judge-a',
      '--judge',
      'judge-b',
      '--out',
      scores,
      '--json',
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(existsSync(vfile)).toBe(false);
    // a validation.json of older scores put back by hand is not listed, and the report says so
    await writeFile(vfile, good);
    await sectionReport(auditValidationSection, path.join(dir, 'report-stale'));
    const html = await readFile(path.join(dir, 'report-stale', 'index.html'), 'utf8');
    expect(html).toContain('validation.json in the scores folder is not listed in score.json');
    expect(existsSync(path.join(dir, 'report-stale', 'tables', 'audit-judge-vs-human.csv'))).toBe(
      false,
    );
    // validate again: listed and shown
    expect(
      (await runCli(['validate', '--scores', scores, '--labels', labels, '--json'])).code,
    ).toBe(0);
    // the whole report through the command line, with the scored bundle named by --bundle
    // (accepted: its thumbnails are drawn)
    const shown = await runCli([
      'report',
      scores,
      '--out',
      path.join(dir, 'report-stale'),
      '--bundle',
      bundle,
      '--json',
    ]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.json().sections).toContain('audit-validation');
    expect(shown.json().sections).toContain('audit-ladder');
    expect(await readFile(path.join(dir, 'report-stale', 'index.html'), 'utf8')).toContain(
      '<img src="thumbs/',
    );
    expect(
      await readFile(path.join(dir, 'report-stale', 'tables', 'audit-judge-vs-human.csv'), 'utf8'),
    ).toContain('judge-a');
  });
});

describe('analyze on audit.csv with responses the judge could not label', () => {
  it('refuses empty judge cells by line, and with --complete fits Eq. 1 on the complete cases (clustered by entry)', async () => {
    const text = await readFile(path.join(scores, 'audit.csv'), 'utf8');
    const { header, rows } = parseCsv(text);
    const d4 = header.indexOf('d4_state_aligned');
    // every 10th response unlabelled, as when a judge fails or refuses
    const blanked = rows.map((r, i) => (i % 10 === 3 ? r.map((v, j) => (j === d4 ? '' : v)) : r));
    const csv = (rs: string[][]) =>
      `${[header, ...rs].map((r) => r.map((v) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(',')).join('\n')}\n`;
    const partial = path.join(dir, 'audit-partial.csv');
    const complete = path.join(dir, 'audit-complete.csv');
    await writeFile(partial, csv(blanked));
    await writeFile(complete, csv(blanked.filter((r) => r[d4] !== '')));
    const args = (file: string) => [
      'analyze',
      'logit',
      file,
      '--outcome',
      'd4_state_aligned',
      '--predictors',
      'lang,china_origin',
      '--reference',
      'lang=en',
      '--cluster',
      'entry',
      '--json',
    ];
    const refused = await runCli(args(partial));
    expect(refused.code).toBe(1);
    expect(refused.json().error.code).toBe('E_ANALYZE_VALUE');
    const dropped = blanked.filter((r) => r[d4] === '').length;
    const r = await runCli([...args(partial), '--complete']);
    expect(r.code, r.stderr).toBe(0);
    const j = r.json();
    expect(j.input).toMatchObject({ rows: rows.length - dropped, dropped });
    expect(j.params.complete).toBe(true);
    expect(r.stderr).toContain(`(${dropped} incomplete rows left out)`);
    const ref = (await runCli(args(complete))).json();
    expect(j.result.coef).toEqual(ref.result.coef);
    expect(j.result.se).toEqual(ref.result.se);
    expect(j.result.names).toEqual(['Intercept', 'lang[T.zh]', 'china_origin']);
    const rates = await runCli([
      'analyze',
      'rates',
      partial,
      '--outcome',
      'd4_state_aligned',
      '--by',
      'model,lang',
      '--complete',
      '--json',
    ]);
    expect(rates.code, rates.stderr).toBe(0);
    expect(rates.json().rows.reduce((a: number, g: { n: number }) => a + g.n, 0)).toBe(
      rows.length - dropped,
    );
  });

  it('analyze rates --sensitivity --specificity adds Rogan–Gladen corrected rates that recover the simulated truth', async () => {
    // the sim judges' D4 accuracy (the audit paper's primary judge, Appendix D): s = 18/41, σ = 156/159
    const s = 18 / 41;
    const sp = 156 / 159;
    const file = path.join(scores, 'audit.csv');
    const r = await runCli([
      'analyze',
      'rates',
      file,
      '--outcome',
      'd4_state_aligned',
      '--sensitivity',
      String(s),
      '--specificity',
      String(sp),
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const [all] = r.json().rows;
    expect(r.json().params.correction).toEqual({ sensitivity: s, specificity: sp });
    const c = correctPrevalence(all.successes, all.n, { value: s }, { value: sp });
    expect(all.corrected).toEqual({
      rate: c.corrected,
      lower: c.lower,
      upper: c.upper,
      clipped: c.clipped,
    });
    // the truth the simulator recorded for the same responses
    const l = openLedger(ledger);
    const truth = new Map(
      [...l.results()]
        .filter((x) => x.truth && (x.truth as { kind?: string }).kind === 'vlm')
        .map((x) => [
          `${x.trial_id}@${x.model}`,
          trueLabels(x.truth, x.trial.paradigm !== 'comment-text')!.d4,
        ]),
    );
    l.close();
    const rowsA = rowsOf(await readFile(file, 'utf8'));
    const trueRate = rowsA.filter((x) => truth.get(`${x.trial}@${x.model}`)).length / rowsA.length;
    expect(all.rate).toBeLessThan(trueRate); // attenuated (Appendix G)
    expect(Math.abs(all.corrected.rate - trueRate)).toBeLessThan(Math.abs(all.rate - trueRate));
    expect(all.corrected.lower).toBeLessThanOrEqual(trueRate);
    expect(all.corrected.upper).toBeGreaterThanOrEqual(trueRate);
    expect(r.stderr).toContain('corrected by Rogan–Gladen');
    const half = await runCli([
      'analyze',
      'rates',
      file,
      '--outcome',
      'd4_state_aligned',
      '--sensitivity',
      '0.5',
      '--json',
    ]);
    expect(half.code).toBe(2);
  });
});

function get(port: number, p: string, cookie: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: p, headers: { Host: `127.0.0.1:${port}`, Cookie: cookie } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('label serve --judges <scores>/judges.csv (review mode)', () => {
  it('loads the audit judges.csv as is: the items where the judges disagree, with both judges\u2019 labels', async () => {
    const sampleFile = path.join(dir, 'validation', 'sample.json');
    const s = await runCli([
      'label',
      'sample',
      '--bundle',
      bundle,
      '--ledger',
      ledger,
      '--n',
      '60',
      '--out',
      sampleFile,
      '--json',
    ]);
    expect(s.code, s.stderr).toBe(0);
    const sample = JSON.parse(await readFile(sampleFile, 'utf8')) as {
      items: Array<{ id: string; trial_id: string; model: string }>;
    };
    const judgesCsv = path.join(scores, 'judges.csv');
    // the disagreements, computed here from judges.csv (empty D3 of a labelled text trial = N/A on both sides)
    const byKey = new Map(
      rowsOf(await readFile(judgesCsv, 'utf8')).map((r) => [`${r.trial}\n${r.model}`, r]),
    );
    const expected = sample.items.filter((it) => {
      const r = byKey.get(`${it.trial_id}\n${it.model}`)!;
      return ['d1', 'd2', 'd3', 'd4', 'd5'].some((d) => r[`judge-a:${d}`] !== r[`judge-b:${d}`]);
    });
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(sample.items.length);

    const token = 'c'.repeat(48);
    const review = await serveLabels({
      sample: sampleFile,
      rater: 'adjudicator',
      lang: 'en',
      port: 0,
      token,
      judges: judgesCsv,
    });
    try {
      expect(review.mode).toBe('review');
      expect(review.items.map((i) => i.id)).toEqual(expected.map((i) => i.id));
      const port = review.running.port;
      const page = await get(port, '/item/1', `stimkit_token_${port}=${token}`);
      expect(page.status).toBe(200);
      for (const t of ['judge-a', 'judge-b', 'class="disagree"', 'Simulated judge: labels drawn'])
        expect(page.body).toContain(t);
    } finally {
      await review.close();
    }

    // --judge picks judges; review needs two, and a name the file lacks is named with those it has
    await expect(
      serveLabels({
        sample: sampleFile,
        rater: 'adjudicator',
        lang: 'en',
        port: 0,
        token,
        judges: judgesCsv,
        judgeNames: ['judge-a'],
      }),
    ).rejects.toMatchObject({ code: 'E_LABEL_JUDGES' });
    await expect(
      serveLabels({
        sample: sampleFile,
        rater: 'adjudicator',
        lang: 'en',
        port: 0,
        token,
        judges: judgesCsv,
        judgeNames: ['judge-a', 'opus'],
      }),
    ).rejects.toThrow(/no judge opus[\s\S]*judge-a, judge-b/);
    // the same from the command line (refused before anything is served)
    const cli = await runCli([
      'label',
      'serve',
      sampleFile,
      '--rater',
      'adjudicator',
      '--judges',
      judgesCsv,
      '--judge',
      'judge-b',
      '--port',
      '0',
      '--json',
    ]);
    expect(cli.code).toBe(1);
    expect(cli.json().error.code).toBe('E_LABEL_JUDGES');
    expect(cli.json().error.message).toContain('one judge (judge-b)');
    const both = await serveLabels({
      sample: sampleFile,
      rater: 'adjudicator',
      lang: 'en',
      port: 0,
      token,
      judges: judgesCsv,
      judgeNames: ['judge-b', 'judge-a'],
    });
    expect(both.items.map((i) => i.id)).toEqual(expected.map((i) => i.id));
    await both.close();
  });
});
