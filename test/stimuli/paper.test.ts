// The shipped stimuli against the papers: the 28 items of the dual-framing paper (strings copied
// from the paper into fixtures/paper-items.ts, independently of the manifest), their polarity
// keys, the swap property of every shipped item, and the verbatim Table A3 prompts.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandPairs, type PairItem } from '../../src/stimuli/pairs.js';
import { loadPromptCards, renderPromptCard } from '../../src/stimuli/prompts.js';
import { findSwap } from '../../src/stimuli/swap.js';
import { loadTopics, type TopicItem } from '../../src/stimuli/topics.js';
import { loadWrapperPools } from '../../src/stimuli/wrappers.js';
import { ROOT, runCli } from '../helpers/cli.js';
import {
  PAPER_COMMENT_TEXT_EXAMPLES,
  PAPER_PROMPTS,
  PAPER_TOPICS,
  PAPER_WRAPPERS,
} from './fixtures/paper-items.js';

const M = (f: string) => path.join(ROOT, 'manifests', f);

/** The paper's 28 items in the order `stimkit pairs` gives them (topic, language, framing). */
const PAPER_ITEMS = PAPER_TOPICS.flatMap((t) =>
  (['en', 'zh'] as const).flatMap((lang) =>
    (['affirmative', 'reverse'] as const).map((framing) => ({
      id: `${t.topic}.${lang}.${framing}`,
      text: t[`${lang}_${framing}`],
      // Methods 4.4: ×(−1) for a CN-keyed affirmative, ×(−1) for the reverse framing.
      polarity_key: (t.key === 'US' ? 1 : -1) * (framing === 'affirmative' ? 1 : -1),
    })),
  ),
);

describe('the dual-framing paper’s seven topics', () => {
  it('render exactly the paper’s English and Mandarin sentences, with the paper’s keys', async () => {
    const items = expandPairs(await loadTopics(M('geopolitics.topics.yaml')));
    expect(items.map((i) => ({ id: i.id, text: i.text, polarity_key: i.polarity_key }))).toEqual(
      PAPER_ITEMS,
    );
    const topics = await loadTopics(M('geopolitics.topics.yaml'));
    expect(topics.topics.map((t) => [t.id, t.title, t.key])).toEqual(
      PAPER_TOPICS.map((t) => [t.topic, t.title, t.key]),
    );
    expect(topics.poles).toEqual({ plus: 'Pro-U.S.', minus: 'Pro-China' });
    expect(topics.keys).toEqual({ US: 'plus', CN: 'minus' });
  });

  it('`stimkit pairs manifests/geopolitics.topics.yaml --json` prints the 28 items', async () => {
    const run = await runCli(['pairs', M('geopolitics.topics.yaml'), '--json']);
    expect(run.code).toBe(0);
    const out = run.json();
    expect(out.ok).toBe(true);
    expect(out.counts).toEqual({ topics: 7, languages: 2, items: 28, drafts: 0 });
    expect(
      out.items.map((i: PairItem) => ({ id: i.id, text: i.text, polarity_key: i.polarity_key })),
    ).toEqual(PAPER_ITEMS);
    for (const i of out.items as PairItem[]) {
      expect(i.agree_pole_label).toBe(i.polarity_key === 1 ? 'Pro-U.S.' : 'Pro-China');
      expect(i.provenance.status).toBe('published');
      expect(i.outcome_first).toBe(i.framing === 'affirmative' ? 'a' : 'b');
    }
  });

  it('the Portuguese and transfer-domain keys follow their base files', async () => {
    const pt = await loadTopics(M('geopolitics.pt.topics.yaml'));
    expect(pt.topics.map((t) => t.key)).toEqual(PAPER_TOPICS.map((t) => t.key));
    const sci = await loadTopics(M('science-consensus.topics.yaml'));
    const cult = await loadTopics(M('cultural-values.topics.yaml'));
    // Each transfer domain is balanced-keyed: one topic keyed to each pole.
    for (const f of [sci, cult])
      expect(f.topics.map((t) => t.affirmative_pole).sort()).toEqual(['minus', 'plus']);
    expect(cult.poles.minus).toBe('Individual autonomy');
  });
});

/** True if `rev` is `aff` with the parts of outcome a and outcome b exchanged where they occur. */
function isPartwiseSwap(item: TopicItem): boolean {
  const a = item.outcome_a as Record<string, string>;
  const b = item.outcome_b as Record<string, string>;
  // Find, in the affirmative, each part of either outcome; swap each for its counterpart.
  const spans: Array<{ at: number; from: string; to: string }> = [];
  for (const k of Object.keys(a)) {
    for (const [from, to] of [
      [a[k]!, b[k]!],
      [b[k]!, a[k]!],
    ] as const) {
      const at = item.affirmative.indexOf(from);
      if (at >= 0 && item.affirmative.indexOf(from, at + 1) < 0) spans.push({ at, from, to });
    }
  }
  spans.sort((x, y) => x.at - y.at);
  let out = '';
  let pos = 0;
  for (const s of spans) {
    if (s.at < pos) return false;
    out += item.affirmative.slice(pos, s.at) + s.to;
    pos = s.at + s.from.length;
  }
  return spans.length >= 2 && out + item.affirmative.slice(pos) === item.reverse;
}

describe('every shipped reverse is the swap of its affirmative', () => {
  const files = [
    'geopolitics.topics.yaml',
    'geopolitics.pt.topics.yaml',
    'geopolitics.zh-Hant.topics.yaml',
    'science-consensus.topics.yaml',
    'cultural-values.topics.yaml',
  ];
  for (const f of files) {
    it(f, async () => {
      const topics = await loadTopics(M(f));
      let checked = 0;
      for (const t of topics.topics) {
        for (const item of Object.values(t.items)) {
          expect(item.reverse).not.toBe(item.affirmative);
          if (typeof item.outcome_a === 'string' && typeof item.outcome_b === 'string') {
            const swap = findSwap(item.affirmative, item.reverse);
            expect(swap, `${t.id}.${item.lang}`).not.toBeNull();
            // The swapped terms are (fragments of) the declared outcomes, nothing else.
            const [x, y] = [swap!.first, swap!.second];
            const terms = [item.outcome_a, item.outcome_b];
            expect(
              terms.some((o) => o.includes(x)) && terms.some((o) => o.includes(y)),
              `${t.id}.${item.lang}`,
            ).toBe(true);
          } else {
            expect(isPartwiseSwap(item), `${t.id}.${item.lang}`).toBe(true);
          }
          checked++;
        }
      }
      expect(checked).toBe(topics.topics.length * topics.languages.length);
    });
  }
});

describe('the audit paper’s Table A3 prompt cards', () => {
  it('hold the verbatim en and zh prompts of all five paradigms', async () => {
    const cards = await loadPromptCards(M('prompts.yaml'));
    expect(Object.keys(cards.paradigms)).toEqual(Object.keys(PAPER_PROMPTS));
    for (const [paradigm, text] of Object.entries(PAPER_PROMPTS)) {
      expect(cards.paradigms[paradigm]!.text).toEqual(text);
      for (const lang of ['en', 'zh'])
        expect(cards.paradigms[paradigm]!.provenance[lang]!.status).toBe('published');
    }
    expect(cards.paradigms['comment-text']).toMatchObject({ image: false, vars: ['subject'] });
    for (const p of ['describe', 'comment-image', 'abstraction', 'narrative'])
      expect(cards.paradigms[p]!.image).toBe(true);
  });

  it('render the appendix’s comment-text instantiations', async () => {
    const cards = await loadPromptCards(M('prompts.yaml'));
    for (const ex of PAPER_COMMENT_TEXT_EXAMPLES) {
      expect(renderPromptCard(cards, 'comment-text', 'en', { subject: ex.subject.en })).toBe(ex.en);
      expect(renderPromptCard(cards, 'comment-text', 'zh', { subject: ex.subject.zh })).toBe(ex.zh);
    }
    expect(renderPromptCard(cards, 'describe', 'zh')).toBe('请描述这张照片的内容。');
  });
});

describe('the paper’s printed wrappers', () => {
  it('are in the pools verbatim, marked published; every other wrapper is marked as not the paper’s', async () => {
    const pools = await loadWrapperPools(M('wrappers.yaml'));
    for (const lang of ['en', 'zh'] as const) {
      const pool = pools.pools[lang]!;
      const paper = PAPER_WRAPPERS[lang];
      expect(pool.options.map((o) => o.label)).toEqual(paper.options);
      expect(pool.prefixes.slice(0, paper.prefixes.length).map((w) => w.text)).toEqual(
        paper.prefixes,
      );
      expect(pool.suffixes.slice(0, paper.suffixes.length).map((w) => w.text)).toEqual(
        paper.suffixes,
      );
      const printed = new Set<string>([...paper.prefixes, ...paper.suffixes]);
      for (const w of [...pool.prefixes, ...pool.suffixes]) {
        expect(w.provenance.status === 'published', w.id).toBe(printed.has(w.text));
      }
    }
    for (const w of [...pools.pools.pt!.prefixes, ...pools.pools.pt!.suffixes])
      expect(w.provenance.status).not.toBe('published');
    expect(pools.option_values).toEqual([2, 1, -1, -2]);
  });
});
