/** `stimkit label sample` and opening a sample against its bundle. */
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBundle, promptText } from '../../src/label/bundle.js';
import { LABEL_SAMPLE_SCHEMA_FILE, labelSampleSchemaText } from '../../src/label/json-schema.js';
import { openLabelSample } from '../../src/label/load-sample.js';
import { makeLabelSample, sampleItemId } from '../../src/label/make-sample.js';
import { LabelSample } from '../../src/label/sample-schema.js';
import { openLedger } from '../../src/ledger/read.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { MODELS, writeLabelFixture, type LabelFixture } from './fixture.js';

let dir: string;
let fx: LabelFixture;
beforeAll(async () => {
  dir = await tempDir('stimkit-label-sample-');
  fx = await writeLabelFixture(dir);
});

describe('label sample', () => {
  it('writes a valid sample whose items carry the prompt and response verbatim', async () => {
    const out = path.join(dir, 's1', 'sample.json');
    const r = await makeLabelSample({
      bundle: fx.bundle,
      responses: fx.responses,
      out,
      n: 40,
      seed: 42,
    });
    const parsed = LabelSample.parse(JSON.parse(await readFile(out, 'utf8')));
    expect(parsed.items).toHaveLength(40);
    expect(parsed.bundle).toEqual({ path: '../bundle', digest: fx.digest });
    expect(r.withoutText).toBe(1);
    expect(parsed.population).toBe(3 * 264); // 3 models × (216 headline + 48 narrative) VLM trials
    expect(new Set(parsed.items.map((i) => i.model))).toEqual(new Set(MODELS));
    expect(new Set(parsed.items.map((i) => i.lang))).toEqual(new Set(['en', 'zh']));
    expect(new Set(parsed.items.map((i) => i.paradigm))).toEqual(
      new Set(['describe', 'comment-image', 'comment-text', 'abstraction', 'narrative']),
    );
    const bundle = await loadBundle(fx.bundle);
    const responses = new Map(
      (await readFile(fx.responses, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { trial_id: string; model: string; response: string })
        .map((x) => [`${x.trial_id} ${x.model}`, x.response]),
    );
    for (const item of parsed.items) {
      const t = bundle.trialById.get(item.trial_id)!;
      expect(item.id).toBe(sampleItemId(item.trial_id, item.model));
      expect(item.prompt).toBe(promptText(t));
      expect(item.images).toEqual(t.images);
      expect(item.response).toBe(responses.get(`${item.trial_id} ${item.model}`));
      expect(item.sensitivity).toBe(bundle.entries.get(item.entry!)!.sensitivity);
    }
    // comment-text shows no image.
    expect(
      parsed.items.filter((i) => i.paradigm === 'comment-text').every((i) => i.images.length === 0),
    ).toBe(true);
  });

  it('gives the same bytes for the same inputs', async () => {
    const a = path.join(dir, 'a.json');
    const b = path.join(dir, 'b.json');
    await makeLabelSample({ bundle: fx.bundle, responses: fx.responses, out: a, n: 30, seed: 3 });
    await makeLabelSample({ bundle: fx.bundle, responses: fx.responses, out: b, n: 30, seed: 3 });
    expect(await readFile(a, 'utf8')).toBe(await readFile(b, 'utf8'));
  });

  it('runs from the command line and rejects responses to trials the bundle lacks', async () => {
    const out = path.join(dir, 'cli.json');
    const ok = await runCli([
      'label',
      'sample',
      '--bundle',
      fx.bundle,
      '--responses',
      fx.responses,
      '--n',
      '20',
      '--out',
      out,
      '--json',
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json().items).toBe(20);
    const bad = path.join(dir, 'bad.jsonl');
    await writeFile(
      bad,
      `${JSON.stringify({ trial_id: 't_000000000000000000000000', model: 'x', response: 'hi' })}\n`,
    );
    const r = await runCli([
      'label',
      'sample',
      '--bundle',
      fx.bundle,
      '--responses',
      bad,
      '--out',
      out,
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_LABEL_UNKNOWN_TRIAL');
    const usage = await runCli(['label', 'sample', '--bundle', fx.bundle, '--out', out]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--responses');
  });

  it('says why nothing can be sampled when no line has response text', async () => {
    const empty = path.join(dir, 'no-text.jsonl');
    const lines = (await readFile(fx.responses, 'utf8'))
      .trim()
      .split('\n')
      .slice(0, 5)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    await writeFile(
      empty,
      lines
        .map(
          (x) =>
            `${JSON.stringify({ trial_id: x.trial_id, model: x.model, response_text: null, outcome: 'failed' })}\n`,
        )
        .join(''),
    );
    const r = await runCli([
      'label',
      'sample',
      '--bundle',
      fx.bundle,
      '--responses',
      empty,
      '--out',
      path.join(dir, 'none.json'),
      '--json',
    ]);
    expect(r.code).toBe(1);
    const p = r.json().error.problems[0];
    expect(p.code).toBe('E_LABEL_NOTHING_TO_SAMPLE');
    expect(p.message).toContain('5 without text');
    expect(p.fix).toContain('response_text');
  });

  it('opens a sample against its bundle, and says clearly when they do not match', async () => {
    const out = path.join(dir, 'open', 'sample.json');
    await makeLabelSample({ bundle: fx.bundle, responses: fx.responses, out, n: 20, seed: 1 });
    const opened = await openLabelSample(out);
    expect(opened.bundle.digest).toBe(fx.digest);

    const wrong = JSON.parse(await readFile(out, 'utf8'));
    wrong.bundle.digest = '0'.repeat(64);
    const wrongFile = path.join(dir, 'open', 'wrong.json');
    await writeFile(wrongFile, JSON.stringify(wrong));
    await expect(openLabelSample(wrongFile)).rejects.toMatchObject({
      code: 'E_LABEL_SAMPLE_BUNDLE_MISMATCH',
    });

    // The same bundle with one image removed: the digest still matches (manifests untouched),
    // and the missing image is named.
    const copy = path.join(dir, 'copy');
    await cp(fx.bundle, copy, { recursive: true });
    const withImage = opened.sample.items.find((i) => i.images.length > 0)!;
    await rm(path.join(copy, 'data', 'images', `${withImage.images[0]}.png`));
    const err = await openLabelSample(out, copy).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_LABEL_IMAGE_MISSING' });
    expect((err as Error & { problems: Array<{ file: string }> }).problems[0]!.file).toContain(
      withImage.images[0],
    );

    await writeFile(wrongFile, JSON.stringify({ format: 'stimkit.other', version: 1 }));
    await expect(openLabelSample(wrongFile)).rejects.toMatchObject({
      code: 'E_LABEL_SAMPLE_FORMAT',
    });
  });

  it('draws from a run ledger (the simulated demo respondents), keeping only responses with text', async () => {
    const ledger = path.join(dir, 'run', 'ledger.sqlite');
    const run = await runCli([
      'run',
      fx.bundle,
      '--models',
      path.join(ROOT, 'manifests', 'demo.models.yaml'),
      '--ledger',
      ledger,
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const out = path.join(dir, 'run', 'sample.json');
    const r = await runCli([
      'label',
      'sample',
      '--bundle',
      fx.bundle,
      '--ledger',
      ledger,
      '--n',
      '30',
      '--out',
      out,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const s = LabelSample.parse(JSON.parse(await readFile(out, 'utf8')));
    expect(s.inputs.responses.kind).toBe('ledger');
    // Only the VLM respondents answer trials with an entry; the instrument respondents are skipped.
    expect(new Set(s.items.map((i) => i.model))).toEqual(
      new Set(['sim-refuser-zh', 'sim-reframer', 'sim-candid']),
    );
    // the instrument respondents' 112 instrument trials and their pressure turns (224 + 220 + 224)
    expect(r.json().skipped.other_paradigms).toBe(224 + 220 + 224);
    const reader = openLedger(ledger);
    const texts = new Map([...reader.results()].map((x) => [`${x.trial_id} ${x.model}`, x.text]));
    reader.close();
    for (const item of s.items)
      expect(item.response).toBe(texts.get(`${item.trial_id} ${item.model}`));
    // Simulated raters label the sample from the ledger's truth (a dry run of the validation).
    const labels = path.join(dir, 'run', 'labels.csv');
    const sim = await runCli([
      'label',
      'simulate',
      out,
      '--ledger',
      ledger,
      '--rater',
      'sim-rater-1=0.95',
      '--rater',
      'sim-rater-2=0.9',
      '--out',
      labels,
      '--json',
    ]);
    expect(sim.code, sim.stderr).toBe(0);
    expect(sim.json()).toMatchObject({
      simulated: true,
      rows: 2 * s.items.length,
      raters: ['sim-rater-1', 'sim-rater-2'],
    });
    const csv = (await readFile(labels, 'utf8')).trim().split('\n');
    expect(csv).toHaveLength(1 + 2 * s.items.length);
    expect(
      csv
        .slice(1)
        .every((l) => l.includes(',sim-rater-') && l.includes('SIMULATED rater (accuracy 0.9')),
    ).toBe(true);
    const again = await runCli([
      'label',
      'simulate',
      out,
      '--ledger',
      ledger,
      '--rater',
      'sim-rater-1=0.95',
      '--rater',
      'sim-rater-2=0.9',
      '--out',
      `${labels}.2`,
    ]);
    expect(again.code).toBe(0);
    expect(await readFile(`${labels}.2`, 'utf8')).toBe(await readFile(labels, 'utf8'));
    expect(
      (
        await runCli([
          'label',
          'simulate',
          out,
          '--ledger',
          ledger,
          '--rater',
          'sim-rater-1=0.3',
          '--out',
          labels,
        ])
      ).code,
    ).toBe(2);
    const both = await runCli([
      'label',
      'sample',
      '--bundle',
      fx.bundle,
      '--ledger',
      ledger,
      '--responses',
      fx.responses,
      '--out',
      out,
    ]);
    expect(both.code).toBe(2);
    const noRun = await runCli([
      'label',
      'sample',
      '--bundle',
      fx.bundle,
      '--ledger',
      ledger,
      '--run',
      'nope',
      '--out',
      out,
      '--json',
    ]);
    expect(noRun.json().error.code).toBe('E_LEDGER_NO_RUN');
  });

  it('has a current JSON Schema (npm run schemas)', async () => {
    expect(await readFile(LABEL_SAMPLE_SCHEMA_FILE, 'utf8')).toBe(labelSampleSchemaText());
  });
});
