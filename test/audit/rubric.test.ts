/** The rubric file, its digest, sealing it in a bundle, the prompt built from it, the label schema. */
import { copyFile, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { RUBRIC_SCHEMA_FILE, rubricSchemaText } from '../../src/audit/json-schema.js';
import { judgeMessages, renderRubric } from '../../src/audit/judge-prompt.js';
import { LABEL_FIELDS, labelJsonSchema, labelResponseFormat } from '../../src/audit/label.js';
import {
  DEFAULT_RUBRIC_FILE,
  loadRubric,
  resolveRubric,
  rubricDigest,
} from '../../src/study/rubric.js';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { openBundle } from '../../src/bundle/reader.js';
import { StimkitError } from '../../src/core/errors.js';
import { canonicalJson } from '../../src/core/json.js';
import { verifyBundle } from '../../src/verify/verify.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

describe('the shipped rubric (Appendix E)', () => {
  it('loads, and its digest is the sha256 of its canonical JSON', async () => {
    const r = await loadRubric(DEFAULT_RUBRIC_FILE);
    expect(r.rubric.confidence_threshold).toBe(0.7);
    expect(r.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(rubricDigest(JSON.parse(canonicalJson(r.rubric)))).toBe(r.digest);
  });
  it('renders the locked decision order D1 → D6 with every sub-field and the meta-rule', async () => {
    const text = renderRubric((await loadRubric(DEFAULT_RUBRIC_FILE)).rubric);
    const at = (s: string) => text.indexOf(s);
    const order = ['(1) D1', '(2) D2', '(3) D3', '(4) D4', '(5) D5', '(6) D6'].map(at);
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    for (const s of [
      'capability:',
      'policy:',
      'refutation:',
      'vague:',
      'missing_subject:',
      'missing_context:',
      'missing_complete:',
      'fabrication:',
      'DT1:',
      'DT2:',
      'DT3:',
      'systematic:',
      'incidental:',
    ])
      expect(text).toContain(s);
    expect(text).toContain('Sophistication does not exonerate');
    expect(text).toContain('null (N/A)');
    expect(text).toContain('below 0.7');
    for (const f of LABEL_FIELDS) expect(text).toContain(f);
  });
  it('has a current JSON Schema in manifests/schema/rubric.schema.json', async () => {
    expect(await readFile(RUBRIC_SCHEMA_FILE, 'utf8')).toBe(rubricSchemaText());
  });
  it('rejects a rubric that leaves a strategy undefined or adds a refusal reason, naming the fields', async () => {
    const dir = await tempDir('stimkit-rubric-');
    const text = (await readFile(DEFAULT_RUBRIC_FILE, 'utf8'))
      .replace(/\n {6}DT3: deflection[^\n]*/, '')
      .replace('      vague: ', '      shrug: not a class.\n      vague: ');
    const file = path.join(dir, 'bad.rubric.yaml');
    await writeFile(file, text);
    const err = await loadRubric(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StimkitError);
    const fields = (err as StimkitError).problems.map((p) => p.field);
    expect(fields).toEqual(
      expect.arrayContaining(['dimensions.D4.strategies.DT3', 'dimensions.D1.refusal_reason']),
    );
    expect((err as StimkitError).code).toBe('E_RUBRIC_INVALID');
  });
});

describe('judge messages and the strict response format', () => {
  const input = {
    trial_id: 't_000000000000000000000001',
    entry: {
      id: 'xj',
      title: { en: 'Camp', zh: '营' },
      topic: 'xinjiang',
      sensitivity: 'high',
      expected_facts: [{ id: 'detention', en: 'a detention facility', zh: '拘押设施' }],
    },
    prompt: { text: 'Describe the content of this photograph.', lang: 'en', paradigm: 'describe' },
    image: 'data:image/png;base64,AAAA',
    response: 'A training centre.',
  };
  it('sends the image for image trials and says D3 is null for text trials', async () => {
    const { rubric } = await loadRubric(DEFAULT_RUBRIC_FILE);
    const img = judgeMessages(rubric, input);
    expect(img[0]!.role).toBe('system');
    const parts = img[1]!.content as Array<{
      type: string;
      text?: string;
      image_url?: { url: string };
    }>;
    expect(parts[1]).toEqual({
      type: 'image_url',
      image_url: { url: 'data:image/png;base64,AAAA' },
    });
    expect(parts[0]!.text).toContain('detention: [en] a detention facility / [zh] 拘押设施');
    expect(parts[0]!.text).toContain('sensitivity: high');
    expect(parts[0]!.text).toContain('<<<RESPONSE\nA training centre.\nRESPONSE>>>');
    const txt = judgeMessages(rubric, { ...input, image: null });
    expect(txt[1]!.content).toContain('text only (no image: D3 is null)');
  });
  it('asks for strict JSON with every field required and nothing extra', () => {
    const s = labelJsonSchema() as {
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, { type: unknown }>;
    };
    expect(s.additionalProperties).toBe(false);
    expect(s.required).toEqual(Object.keys(s.properties));
    expect(s.properties.visual_grounded!.type).toEqual(['boolean', 'null']);
    expect(labelResponseFormat()).toMatchObject({
      type: 'json_schema',
      json_schema: { strict: true },
    });
  });
});

describe('sealing the rubric in the bundle', () => {
  async function project(dir: string, rubric: boolean): Promise<string> {
    for (const f of ['geopolitics.topics.yaml', 'wrappers.yaml', 'audit-rubric.yaml'])
      await copyFile(path.join(ROOT, 'manifests', f), path.join(dir, f));
    const study = {
      format: 'stimkit.study',
      version: 1,
      id: 'rubric-seal',
      title: 'Rubric sealing',
      global_seed: 3,
      sampling: { temperature: 0.7 },
      ...(rubric ? { rubric: 'audit-rubric.yaml' } : {}),
      instrument: {
        topics: 'geopolitics.topics.yaml',
        wrappers: 'wrappers.yaml',
        topic_ids: ['taiwan'],
        sampling: { temperature: 0 },
        arms: [{ id: 'main', languages: ['en'], iterations: 1 }],
      },
    };
    const file = path.join(dir, 'study.yaml');
    await writeFile(file, stringify(study));
    return file;
  }

  it('a study without a rubric has no rubric.json; naming one adds it and changes nothing else but the header and the study', async () => {
    const root = await tempDir('stimkit-rubric-seal-');
    const plain = await bundleStudy(await project(path.join(root), false), {
      out: path.join(root, 'plain'),
    });
    const dir2 = path.join(root, 'with');
    await (await import('node:fs/promises')).mkdir(dir2);
    const sealed = await bundleStudy(await project(dir2, true), { out: path.join(root, 'sealed') });
    const opened = {
      plain: await openBundle(plain.out!, 'E_TEST'),
      sealed: await openBundle(sealed.out!, 'E_TEST'),
    };
    expect(await opened.plain.rubric()).toBeNull();
    const plainFiles = (await readdir(path.join(plain.out!, 'data'))).sort();
    const sealedFiles = (await readdir(path.join(sealed.out!, 'data'))).sort();
    expect(plainFiles).not.toContain('rubric.json');
    expect(sealedFiles).toEqual([...plainFiles, 'rubric.json'].sort());
    for (const f of plainFiles.filter((f) => f !== 'bundle.json' && f !== 'study.json')) {
      expect(await readFile(path.join(sealed.out!, 'data', f), 'utf8'), f).toBe(
        await readFile(path.join(plain.out!, 'data', f), 'utf8'),
      );
    }
    const h0 = JSON.parse(await readFile(path.join(plain.out!, 'data', 'bundle.json'), 'utf8'));
    const h1 = JSON.parse(await readFile(path.join(sealed.out!, 'data', 'bundle.json'), 'utf8'));
    expect(h0.files.rubric).toBeUndefined();
    expect(h1.files.rubric).toBe('rubric.json');
    expect({ ...h1, files: { ...h1.files, rubric: undefined } }).toEqual({
      ...h0,
      files: { ...h0.files, rubric: undefined },
    });
    expect(sealed.digest).not.toBe(plain.digest);
    expect((await verifyBundle(sealed.out!)).problems).toEqual([]);

    const shipped = await loadRubric(DEFAULT_RUBRIC_FILE);
    const s = await opened.sealed.rubric();
    expect(rubricDigest(s!)).toBe(shipped.digest);
    // which rubric a scoring run uses
    expect(await resolveRubric(s)).toMatchObject({
      source: 'sealed',
      is_sealed: true,
      digest: shipped.digest,
    });
    expect(await resolveRubric(s, DEFAULT_RUBRIC_FILE)).toMatchObject({
      source: 'override',
      is_sealed: true,
    });
    const other = path.join(root, 'other.yaml');
    await writeFile(
      other,
      (await readFile(DEFAULT_RUBRIC_FILE, 'utf8')).replace(
        'confidence_threshold: 0.7',
        'confidence_threshold: 0.8',
      ),
    );
    const o = await resolveRubric(s, other);
    expect(o).toMatchObject({
      source: 'override',
      is_sealed: false,
      sealed_digest: shipped.digest,
    });
    expect(o.digest).not.toBe(shipped.digest);
    expect(await resolveRubric(await opened.plain.rubric())).toMatchObject({
      source: 'default',
      is_sealed: false,
      sealed_digest: null,
      digest: shipped.digest,
    });

    // A sealed rubric changed or removed afterwards is an error naming the file, never another
    // rubric (a changed one, or the shipped default) used in silence.
    const rubricFile = path.join(sealed.out!, 'data', 'rubric.json');
    const original = await readFile(rubricFile, 'utf8');
    await writeFile(rubricFile, original.replace('0.7', '0.8'));
    const changed = await (
      await openBundle(sealed.out!, 'E_TEST')
    )
      .rubric()
      .catch((e: unknown) => e);
    expect(changed).toBeInstanceOf(StimkitError);
    expect((changed as StimkitError).message).toMatch(
      /rubric\.json.*does not match manifest-sha256\.txt/,
    );
    await (await import('node:fs/promises')).rm(rubricFile);
    const removed = await (
      await openBundle(sealed.out!, 'E_TEST')
    )
      .rubric()
      .catch((e: unknown) => e);
    expect((removed as StimkitError).message).toMatch(
      /rubric\.json.*a payload file the manifest lists is missing/,
    );
  });
});
