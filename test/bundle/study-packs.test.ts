/**
 * A study's own language pack by path (`language_packs`): `check` validates it with the study,
 * `bundle` seals it byte for byte as data/languages/<tag>.yaml, and `score` reads the sealed one
 * (not the working copy), before the shipped pack it overrides; score.json records it as an input.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { checkFiles } from '../../src/check/check.js';
import { loadScoreBundle } from '../../src/score/bundle.js';
import { instrumentScorer } from '../../src/score/instrument.js';
import { prepareInstrumentJudge } from '../../src/score/instrument-judge.js';
import { scoreToFolder } from '../../src/score/score.js';
import { bundleTrials } from '../score/fixture.js';
import { heavyLimit } from '../helpers/limits.js';
import { tempDirSync } from '../helpers/tmp.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = tempDirSync('stimkit-study-packs-');
const studyFile = path.join(dir, 'own.study.yaml');
const packFile = path.join(dir, 'packs', 'en.yaml');

/** The shipped English pack, with "i pass" read as a neutral answer. */
async function ownEnglish(): Promise<string> {
  const en = parse(await readFile(path.join(ROOT, 'manifests/languages/en.yaml'), 'utf8'));
  en.instrument.neutral.push('i pass');
  return `# English with one more neutral cue\n${stringify(en)}`;
}

const study = (packs: string[] | undefined) => ({
  format: 'stimkit.study',
  version: 1,
  id: 'own-packs',
  title: 'own packs',
  global_seed: 42,
  ...(packs ? { language_packs: packs } : {}),
  instrument: {
    topics: 'geopolitics.topics.yaml',
    wrappers: 'wrappers.yaml',
    topic_ids: ['trade'],
    sampling: { temperature: 0 },
    arms: [{ id: 'main', languages: ['en'], iterations: 1 }],
  },
});

let sealed: string;
let packText: string;

beforeAll(async () => {
  for (const f of ['geopolitics.topics.yaml', 'wrappers.yaml'])
    await copyFile(path.join(ROOT, 'manifests', f), path.join(dir, f));
  await mkdir(path.dirname(packFile));
  packText = await ownEnglish();
  await writeFile(packFile, packText);
  await writeFile(studyFile, stringify(study(['packs/en.yaml'])));
  sealed = path.join(dir, 'bundle');
  await bundleStudy(studyFile, { out: sealed });
}, heavyLimit(7));

const response = (text: string) =>
  ({ trial_id: 'x', model: 'm', response: text, simulated: false, outcome: 'answer' }) as never;
const model = { name: 'm', origin: null, vendor: null, simulated: false } as never;

describe("a study's own language pack", () => {
  it('is sealed byte for byte and listed in the header', async () => {
    expect(await readFile(path.join(sealed, 'data/languages/en.yaml'), 'utf8')).toBe(packText);
    const header = JSON.parse(await readFile(path.join(sealed, 'data/bundle.json'), 'utf8'));
    expect(header.files['languages/en']).toBe('languages/en.yaml');
    const manifest = await readFile(path.join(sealed, 'manifest-sha256.txt'), 'utf8');
    expect(manifest).toMatch(/^[0-9a-f]{64} {2}data\/languages\/en\.yaml$/m);
  });

  it('is what score reads, not the working copy, and it overrides the shipped pack', async () => {
    await writeFile(packFile, packText.replace('- i pass\n', ''));
    const bundle = await loadScoreBundle(sealed);
    expect(bundle.packs.map((p) => p.ref)).toEqual(['data/languages/en.yaml']);
    const trial = (await bundleTrials(sealed))[0]!;
    const own = instrumentScorer.prepare(bundle)({ trial, response: response('I pass.'), model });
    expect(own).toMatchObject({ score: 0, reason: 'neutral' });
    const shipped = instrumentScorer.prepare({ ...bundle, packs: [] });
    expect(shipped({ trial, response: response('I pass.'), model }).reason).toBe('unparseable');
    await writeFile(packFile, packText);
  });

  it('is an input of score.json, with the sealed file and its sha256', async () => {
    const trials = await bundleTrials(sealed);
    const lines = trials.map((t) =>
      JSON.stringify({ trial_id: t.id, model: 'm', response: 'I pass.', simulated: false }),
    );
    await writeFile(path.join(dir, 'responses.jsonl'), `${lines.join('\n')}\n`);
    const { header } = await scoreToFolder({
      bundle: sealed,
      source: { kind: 'responses', file: path.join(dir, 'responses.jsonl') },
      out: path.join(dir, 'scores'),
    });
    expect(header.inputs.find((i) => i.role === 'language_pack')).toMatchObject({
      file: '../bundle/data/languages/en.yaml',
    });
    const scores = await readFile(path.join(dir, 'scores', 'scores.jsonl'), 'utf8');
    expect(
      scores
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).reason),
    ).toEqual(trials.map(() => 'neutral'));
  });

  it('asks the instrument judge about free text in a language only the study’s pack has rules for', async () => {
    // en-AU: no shipped pack answers to it; the study's own pack (English's rules) does
    const au = path.join(dir, 'au');
    await mkdir(path.join(au, 'packs'), { recursive: true });
    const topics = parse(
      await readFile(path.join(ROOT, 'manifests/geopolitics.topics.yaml'), 'utf8'),
    );
    topics.languages['en-AU'] = { ...topics.languages.en, name: 'English (Australia)' };
    for (const t of topics.topics) t.items['en-AU'] = { ...t.items.en };
    await writeFile(path.join(au, 'topics.yaml'), stringify(topics));
    const wrappers = parse(await readFile(path.join(ROOT, 'manifests/wrappers.yaml'), 'utf8'));
    // the English pool under its own ids (a wrapper id is unique across pools)
    const renamed = (list: Array<{ id: string }>) =>
      list.map((w) => ({ ...w, id: w.id.replace(/^en-/, 'au-') }));
    wrappers.pools['en-AU'] = {
      ...wrappers.pools.en,
      prefixes: renamed(wrappers.pools.en.prefixes),
      suffixes: renamed(wrappers.pools.en.suffixes),
    };
    await writeFile(path.join(au, 'wrappers.yaml'), stringify(wrappers));
    const pack = parse(await readFile(path.join(ROOT, 'manifests/languages/en.yaml'), 'utf8'));
    await writeFile(
      path.join(au, 'packs/en-AU.yaml'),
      stringify({ ...pack, tag: 'en-AU', aliases: [] }),
    );
    const auStudy = path.join(au, 'au.study.yaml');
    await writeFile(
      auStudy,
      stringify({
        ...study(['packs/en-AU.yaml']),
        id: 'own-pack-au',
        instrument: {
          ...study(undefined).instrument,
          topics: 'topics.yaml',
          wrappers: 'wrappers.yaml',
          arms: [{ id: 'main', languages: ['en-AU'], iterations: 1 }],
        },
      }),
    );
    const bag = path.join(au, 'bundle');
    await bundleStudy(auStudy, { out: bag });
    const trials = await bundleTrials(bag);
    const responses = path.join(au, 'responses.jsonl');
    const rows = trials.map((t) =>
      JSON.stringify({ trial_id: t.id, model: 'm', response: 'It depends.', simulated: false }),
    );
    await writeFile(responses, `${rows.join('\n')}\n`);
    const models = path.join(au, 'judge.models.yaml');
    await writeFile(
      models,
      stringify({
        format: 'stimkit.models',
        version: 1,
        models: [{ name: 'judge', role: 'judge', endpoint: 'http://127.0.0.1:9/v1' }],
      }),
    );
    const judged = await prepareInstrumentJudge({
      bundle: bag,
      source: { kind: 'responses', file: responses },
      models,
      judges: ['judge'],
      judgeLedger: path.join(au, 'judges.sqlite'),
      // through batch files: nothing is sent, the requests are written and counted
      judgeBatch: { out: path.join(au, 'judge-out') },
    });
    expect(trials.length).toBeGreaterThan(0);
    expect(judged.judged[0]).toMatchObject({ targets: trials.length });
  });

  it('a study naming none seals no pack', async () => {
    const plain = path.join(dir, 'plain.study.yaml');
    await writeFile(plain, stringify(study(undefined)));
    await bundleStudy(plain, { out: path.join(dir, 'plain') });
    expect(existsSync(path.join(dir, 'plain/data/languages'))).toBe(false);
  });

  it('check refuses a bad pack (its file, field and line) and two packs for one language', async () => {
    const bad = path.join(dir, 'packs', 'bad.yaml');
    await writeFile(bad, packText.replace('direction: ltr', 'direction: up'));
    const badStudy = path.join(dir, 'bad.study.yaml');
    await writeFile(badStudy, stringify(study(['packs/bad.yaml'])));
    const r = await checkFiles([badStudy]);
    expect(r.ok).toBe(false);
    expect(r.files[0]!.problems[0]).toMatchObject({
      code: 'E_LANGUAGE_PACK',
      file: bad,
      field: 'direction',
      line: 10,
    });
    const twice = path.join(dir, 'twice.study.yaml');
    await writeFile(twice, stringify(study(['packs/en.yaml', 'stimkit:languages/en.yaml'])));
    const t = await checkFiles([twice]);
    expect(t.files[0]!.problems[0]).toMatchObject({
      code: 'E_STUDY_LANGUAGE_PACKS',
      field: 'language_packs[1]',
    });
    expect(t.files[0]!.problems[0]!.message).toBe(
      'stimkit:languages/en.yaml answers to en, as language_packs[0] does',
    );
  });
});
