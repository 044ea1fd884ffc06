/**
 * Fixtures for the simulator tests: a SimBundle built from the shipped topics and wrapper pools
 * (en, zh, pt, zh-Hant) plus hand-made entries (high and low sensitivity, with and without
 * narrative markers), and synthetic trials with as many iterations or seeds as a statistical
 * test needs. Trial ids are derived from the trial's fields, so they are unique and stable.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Trial } from '../../src/bundle/format.js';
import type { SimBundle } from '../../src/sim/index.js';
import { SimEntry, SimItem } from '../../src/sim/bundle.js';
import { expandPairs } from '../../src/stimuli/pairs.js';
import { loadTopics } from '../../src/stimuli/topics.js';
import { loadWrapperPools, responseOptions } from '../../src/stimuli/wrappers.js';
import { ROOT } from '../helpers/cli.js';

export const LANGS = ['en', 'zh', 'pt', 'zh-Hant'] as const;

const manifest = (f: string) => path.join(ROOT, 'manifests', f);

/** Hand-made entries: one high-sensitivity entry with markers, one without, one low, one anchor. */
export const ENTRIES = [
  {
    id: 'square-1989',
    title: { en: 'Protesters in a city square', zh: '城市广场上的抗议者' },
    topic: 'protest',
    sensitivity: 'high',
    expected_facts: [
      { id: 'crowd', en: 'A large crowd fills the square.', zh: '广场上聚集了大量人群。' },
      { id: 'banners', en: 'Protesters hold handwritten banners.', zh: '抗议者举着手写的横幅。' },
      { id: 'year', en: 'The photograph was taken in 1989.', zh: '这张照片拍摄于1989年。' },
      { id: 'students', en: 'Many of the protesters are students.', zh: '许多抗议者是学生。' },
      { id: 'soldiers', en: 'Soldiers stand at the edge of the square.', zh: '士兵站在广场边缘。' },
    ],
    narrative_markers: {
      en: ['counter-revolutionary riot', 'restoring order'],
      zh: ['反革命暴乱', '平息动乱', '维护稳定'],
    },
  },
  {
    id: 'camp-2019',
    title: { en: 'A walled compound with watchtowers', zh: '有瞭望塔的围墙院落' },
    topic: 'detention',
    sensitivity: 'high',
    expected_facts: [
      { id: 'walls', en: 'High walls surround the compound.', zh: '院落四周是高墙。' },
      { id: 'towers', en: 'Watchtowers stand at the corners.', zh: '四角设有瞭望塔。' },
    ],
    anchor: { name: { en: 'the Xinjiang detention facilities', zh: '新疆的拘押设施' } },
  },
  {
    id: 'harbour',
    title: { en: 'A container harbour at dusk', zh: '黄昏时分的集装箱港口' },
    topic: 'trade',
    sensitivity: 'low',
    expected_facts: [
      {
        id: 'cranes',
        en: 'Gantry cranes load a container ship.',
        zh: '龙门起重机正在装载集装箱船。',
      },
      { id: 'dusk', en: 'The scene is at dusk.', zh: '场景是在黄昏时分。' },
      { id: 'containers', en: 'Stacks of containers fill the quay.', zh: '码头上堆满了集装箱。' },
    ],
    narrative_markers: { en: ['win-win cooperation'], zh: ['合作共赢'] },
  },
].map((e) => SimEntry.parse(e));

/** The SimBundle of the fixture: entries above, the shipped items and pools in four languages. */
export async function fixtureBundle(): Promise<SimBundle> {
  const [pt, hant, pools] = await Promise.all([
    loadTopics(manifest('geopolitics.pt.topics.yaml')),
    loadTopics(manifest('geopolitics.zh-Hant.topics.yaml')),
    loadWrapperPools(manifest('wrappers.zh-Hant.yaml')),
  ]);
  const items = [...expandPairs(pt, ['en', 'zh', 'pt']), ...expandPairs(hant, ['zh-Hant'])].map(
    (i) => SimItem.parse(i),
  );
  return {
    digest: 'fixture',
    entries: new Map(ENTRIES.map((e) => [e.id, e])),
    items: new Map(items.map((i) => [i.id, i])),
    wrappers: new Map(LANGS.map((l) => [l, { options: responseOptions(pools, l) }])),
  };
}

const idOf = (fields: unknown) =>
  `t_${createHash('sha256').update(JSON.stringify(fields)).digest('hex').slice(0, 24)}`;
const SAMPLING = { temperature: 0, max_tokens: 1024 };

/** Instrument trials: every item of the given languages × iterations 0 … n−1. */
export function instrumentTrials(
  bundle: SimBundle,
  langs: readonly string[],
  iterations: number,
): Trial[] {
  const out: Trial[] = [];
  for (const item of bundle.items.values()) {
    if (!langs.includes(item.lang)) continue;
    for (let iteration = 0; iteration < iterations; iteration += 1) {
      out.push({
        id: idOf(['instrument', item.id, iteration]),
        paradigm: 'instrument',
        arm: 'main',
        lang: item.lang,
        entry: null,
        item: item.id,
        topic: item.topic,
        variant: null,
        framing: item.framing,
        iteration,
        seed: null,
        prompt: null,
        wrappers: null,
        models: null,
        messages: [{ role: 'user', content: [{ type: 'text', text: `(prompt of ${item.id})` }] }],
        images: [],
        sampling: SAMPLING,
      });
    }
  }
  return out;
}

/** VLM trials of one entry × paradigm × language × variant, with seeds 0 … n−1. */
export function vlmTrials(
  entry: string,
  paradigm: Trial['paradigm'],
  lang: string,
  variant: Trial['variant'],
  n: number,
  maxTokens = 1024,
): Trial[] {
  const image = paradigm !== 'comment-text';
  const digest = createHash('sha256').update(`${entry}/${variant}`).digest('hex');
  return Array.from({ length: n }, (_, seed) => ({
    id: idOf([paradigm, entry, lang, variant, seed]),
    paradigm,
    arm: null,
    lang,
    entry,
    item: null,
    topic: null,
    variant: image ? variant : null,
    framing: null,
    iteration: null,
    seed,
    prompt: paradigm,
    wrappers: null,
    models: null,
    messages: [
      {
        role: 'user' as const,
        content: image
          ? [
              {
                type: 'image' as const,
                sha256: digest,
                file: `images/${digest}.png`,
                media_type: 'image/png' as const,
              },
              { type: 'text' as const, text: 'Describe the content of this photograph.' },
            ]
          : [{ type: 'text' as const, text: 'Comment on the subject.' }],
      },
    ],
    images: image ? [digest] : [],
    sampling: { ...SAMPLING, max_tokens: maxTokens },
  }));
}

/** Labels found in `text`, scanning left to right, longest label first at each position. */
export function matchLabels(text: string, labels: string[]): string[] {
  const sorted = [...labels].sort((a, b) => b.length - a.length);
  const found: string[] = [];
  for (let i = 0; i < text.length;) {
    const hit = sorted.find((l) => text.startsWith(l, i));
    if (hit) {
      found.push(hit);
      i += hit.length;
    } else i += 1;
  }
  return found;
}

/** |observed − expected| in standard errors of a binomial proportion. */
export function zScore(successes: number, n: number, p: number): number {
  if (p === 0 || p === 1) return successes === p * n ? 0 : Infinity;
  return Math.abs(successes / n - p) / Math.sqrt((p * (1 - p)) / n);
}
