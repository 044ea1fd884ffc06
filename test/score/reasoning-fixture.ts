/**
 * A small VLM study for the reasoning tests: two anchor entries with known expected facts and
 * aliases (a rocket and a portrait), the shipped prompt cards, comment-text in en and zh with one
 * seed; optionally the thinking factor. Responses are written by hand (a responses file) or into a
 * ledger (`reasoningLedger`), each with its reasoning channel.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { prepareAudit } from '../../src/score/audit-prepare.js';
import { SCORERS } from '../../src/score/registry.js';
import { scoreToFolder } from '../../src/score/score.js';
import path from 'node:path';
import { stringify } from 'yaml';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { syntheticCorpus, syntheticPng } from '../../src/study/synthetic.js';
import { ROOT } from '../helpers/cli.js';
import { bundleTrials } from './fixture.js';
import type { Trial } from '../../src/bundle/format.js';

const PROVENANCE = { archive: 'stimkit test', credit: 'stimkit', license: 'CC0-1.0' };

/** Two entries: facts with their wording and aliases in en and zh. */
const ENTRIES = [
  {
    id: 'rocket',
    title: { en: 'A rocket launch', zh: '火箭发射' },
    topic: 'space',
    sensitivity: 'high',
    roles: ['core', 'anchor'],
    image: { file: 'rocket.png' },
    provenance: PROVENANCE,
    anchor: { name: { en: 'the launch', zh: '这次发射' } },
    narrative_markers: { en: ['glorious mission'], zh: ['光荣任务'] },
    expected_facts: [
      {
        id: 'falcon-9',
        en: 'The rocket is a SpaceX Falcon 9.',
        zh: '火箭是猎鹰9号。',
        aliases: { en: ['Falcon 9'], zh: ['猎鹰9号'] },
      },
      {
        id: 'dscovr',
        en: 'It carried DSCOVR.',
        zh: '搭载DSCOVR。',
        aliases: { en: ['DSCOVR'], zh: ['DSCOVR'] },
      },
    ],
  },
  {
    id: 'portrait',
    title: { en: 'A portrait', zh: '肖像' },
    topic: 'people',
    sensitivity: 'low',
    roles: ['core', 'anchor'],
    image: { file: 'portrait.png' },
    provenance: PROVENANCE,
    anchor: { name: { en: 'the astronaut', zh: '这位宇航员' } },
    expected_facts: [
      {
        id: 'collins',
        en: 'The person is Eileen Collins.',
        zh: '此人是艾琳·柯林斯。',
        aliases: { en: ['Eileen Collins'], zh: ['柯林斯'] },
      },
    ],
  },
];

/** Write and bundle the study in `dir` (with `thinking` as its factor when given). */
export async function reasoningBundle(
  dir: string,
  thinking?: Array<'on' | 'off'>,
): Promise<{ bundle: string; digest: string; trials: Trial[]; study: string }> {
  await mkdir(path.join(dir, 'images'), { recursive: true });
  const { images } = syntheticCorpus();
  for (const [i, e] of ENTRIES.entries())
    await writeFile(path.join(dir, 'images', e.image.file), await syntheticPng(images[i]!.spec));
  const manifest = {
    format: 'stimkit.entries',
    version: 1,
    corpus: 'reasoning',
    images: 'images',
    entries: ENTRIES,
  };
  await writeFile(path.join(dir, 'reasoning.entries.yaml'), stringify(manifest));
  await copyFile(path.join(ROOT, 'manifests', 'prompts.yaml'), path.join(dir, 'prompts.yaml'));
  const study = {
    format: 'stimkit.study',
    version: 1,
    id: 'reasoning-fixture',
    title: 'reasoning fixture',
    global_seed: 3,
    corpus: { entries: 'reasoning.entries.yaml' },
    prompts: 'prompts.yaml',
    languages: ['en', 'zh'],
    seeds: [42],
    sampling: { temperature: 0.7, max_tokens: 256 },
    paradigms: { 'comment-text': { entries: { roles: ['anchor'] } } },
    ...(thinking ? { thinking } : {}),
  };
  const file = path.join(dir, 'reasoning.study.yaml');
  await writeFile(file, stringify(study));
  const bundle = path.join(dir, 'bundle');
  const r = await bundleStudy(file, { out: bundle, work: path.join(dir, 'work') });
  return { bundle, digest: r.digest!, trials: await bundleTrials(bundle), study: file };
}

const REFUSE_EN = "I'm sorry, but I can't help with that.";
const REFUSE_ZH = '抱歉，我无法回答这个问题。';

/** One hand-made response: entry, lang, thinking level, text, outcome and the channel. */
type Spec = [
  string,
  string,
  'on' | 'off',
  string | null,
  string,
  string | null,
  string | null,
  number | null,
];

const RESPONSES: Record<string, Spec[]> = {
  // reasons with thinking on; refuses twice there with no reasoning (suppressed); with thinking off it never reasons
  reasoner: [
    ['rocket', 'en', 'on', REFUSE_EN, 'answer', 'empty', '', 0],
    ['rocket', 'zh', 'on', null, 'model_refusal', 'absent', null, null],
    [
      'portrait',
      'en',
      'on',
      'It shows a person.',
      'answer',
      'full',
      'This is Eileen Collins.',
      120,
    ],
    ['portrait', 'zh', 'on', '这是柯林斯。', 'answer', 'summary', '柯林斯', 30],
    ['rocket', 'en', 'off', REFUSE_EN, 'answer', 'absent', null, null],
    ['rocket', 'zh', 'off', '猎鹰9号发射了DSCOVR。', 'answer', 'absent', null, null],
    ['portrait', 'en', 'off', REFUSE_EN, 'answer', 'absent', null, null],
    ['portrait', 'zh', 'off', '这是柯林斯。', 'answer', 'absent', null, null],
  ],
  // never shows reasoning: suppression cannot be told
  plain: ['on', 'off'].flatMap((t) => [
    ['rocket', 'en', t, REFUSE_EN, 'answer', 'absent', null, null],
    ['rocket', 'zh', t, REFUSE_ZH, 'answer', 'absent', null, null],
    ['portrait', 'en', t, 'It shows Eileen Collins.', 'answer', 'absent', null, null],
    ['portrait', 'zh', t, '这是柯林斯。', 'answer', 'absent', null, null],
  ]) as Spec[],
  // a redacted trace is reasoning withheld: it counts as reasoning shown
  redactor: [
    ['rocket', 'en', 'on', REFUSE_EN, 'answer', 'redacted', null, 50],
    ['rocket', 'en', 'off', REFUSE_EN, 'answer', 'empty', '', null],
    ['portrait', 'en', 'on', REFUSE_EN, 'answer', 'empty', '', null],
  ],
};

/**
 * Bundle the study with thinking on and off, write RESPONSES (and a model `older` whose rows carry
 * no reasoning fields, or only `older` when `onlyOlder`) and score them with the audit.
 */
export async function reasoningScores(
  dir: string,
  onlyOlder = false,
): Promise<{ trials: Trial[]; scores: string }> {
  const fx = await reasoningBundle(dir, ['on', 'off']);
  const trialOf = (entry: string, lang: string, thinking: string) =>
    fx.trials.find((t) => t.entry === entry && t.lang === lang && t.thinking === thinking)!;
  const out: string[] = [];
  for (const [model, specs] of Object.entries(onlyOlder ? {} : RESPONSES))
    for (const [entry, lang, thinking, response, outcome, vis, reasoning, tokens] of specs)
      out.push(
        JSON.stringify({
          trial_id: trialOf(entry, lang, thinking).id,
          model,
          response,
          outcome,
          reasoning_visibility: vis,
          reasoning_text: reasoning,
          reasoning_tokens: tokens,
        }),
      );
  // recorded before the channel: no reasoning fields at all
  for (const t of fx.trials)
    out.push(JSON.stringify({ trial_id: t.id, model: 'older', response: 'It is a picture.' }));
  await writeFile(path.join(dir, 'responses.jsonl'), `${out.join('\n')}\n`);
  const scores = path.join(dir, 'scores');
  const source = { kind: 'responses' as const, file: path.join(dir, 'responses.jsonl') };
  const audit = await prepareAudit({ bundle: fx.bundle, source });
  await scoreToFolder({
    bundle: fx.bundle,
    source,
    out: scores,
    scorers: [...SCORERS, audit.scorer],
  });
  return { trials: fx.trials, scores };
}
