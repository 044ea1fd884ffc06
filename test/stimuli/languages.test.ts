// New languages by data alone: Portuguese and the OpenCC zh-Hant draft load and expand through
// the same code as en and zh; the committed zh-Hant files and JSON Schemas are exactly what the
// generators produce; a language invented in the test (German) works with no code at all.
import { copyFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import * as OpenCC from 'opencc-js/cn2t';
import { describe, expect, it } from 'vitest';
import { derivedStimulusFiles } from '../../src/stimuli/generate.js';
import { drawWrappers } from '../../src/stimuli/draw.js';
import { expandPairs } from '../../src/stimuli/pairs.js';
import { loadPromptCards, renderPromptCard } from '../../src/stimuli/prompts.js';
import { renderInstrumentPrompt } from '../../src/stimuli/render.js';
import { loadTopics } from '../../src/stimuli/topics.js';
import { loadWrapperPools } from '../../src/stimuli/wrappers.js';
import { ZH_HANT_DRAFTS, ZH_HANT_OPENCC, ZH_HANT_POST_EDITS } from '../../src/stimuli/opencc.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { writeLines } from './helpers.js';

const M = (f: string) => path.join(ROOT, 'manifests', f);

describe('Portuguese control (data only)', () => {
  it('expands to the 14 pt items with the base keys, drafts flagged', async () => {
    const run = await runCli(['pairs', M('geopolitics.pt.topics.yaml'), '--json']);
    expect(run.code).toBe(0);
    const out = run.json();
    expect(out.counts).toEqual({ topics: 7, languages: 1, items: 14, drafts: 14 });
    expect(out.inputs.map((i: { role: string; file: string }) => [i.role, i.file])).toEqual([
      ['extends', 'manifests/geopolitics.topics.yaml'],
      ['topics', 'manifests/geopolitics.pt.topics.yaml'],
    ]);
    const en = expandPairs(await loadTopics(M('geopolitics.topics.yaml')), ['en']);
    expect(out.items.map((i: { polarity_key: number }) => i.polarity_key)).toEqual(
      en.map((i) => i.polarity_key),
    );
    for (const i of out.items)
      expect(i.provenance).toMatchObject({
        status: 'drafted-pending-adjudication',
        derived_from: { lang: 'en' },
      });
  });

  it('renders a full pt trial prompt with a pt wrapper draw', async () => {
    const topics = await loadTopics(M('geopolitics.pt.topics.yaml'));
    const pools = await loadWrapperPools(M('wrappers.yaml'));
    const item = expandPairs(topics)[0]!;
    const { prefix, suffix } = drawWrappers(pools, {
      globalSeed: 42,
      topic: item.topic,
      lang: 'pt',
      framing: item.framing,
      iteration: 0,
    });
    const prompt = renderInstrumentPrompt(prefix.text, item.text, suffix.text, 'pt');
    expect(prompt.split('\n\n')).toEqual([prefix.text, item.text, suffix.text]);
    expect(prefix.id).toMatch(/^pt-p\d\d$/);
  });
});

describe('zh-Hant: an OpenCC draft of zh, pending human review (data only)', () => {
  it('the committed zh-Hant files and JSON Schemas are exactly what the generators produce', async () => {
    const files = await derivedStimulusFiles();
    expect(files.map((f) => path.relative(ROOT, f.file)).sort()).toEqual(
      [
        'manifests/schema/pressure.schema.json',
        'manifests/schema/prompts.schema.json',
        'manifests/schema/topics.schema.json',
        'manifests/schema/wrappers.schema.json',
        ...ZH_HANT_DRAFTS.map((d) => `manifests/${d.to}`),
      ].sort(),
    );
    for (const f of files)
      expect(
        await readFile(f.file, 'utf8'),
        `${path.relative(ROOT, f.file)} is stale: run node --import tsx src/stimuli/generate.ts`,
      ).toBe(f.text);
  });

  it('every zh-Hant sentence is OpenCC (cn → tw) of the zh sentence, plus the recorded post-edits', async () => {
    const topics = await loadTopics(M('geopolitics.zh-Hant.topics.yaml'));
    const convert = OpenCC.Converter(ZH_HANT_OPENCC);
    const post = (s: string) =>
      ZH_HANT_POST_EDITS.reduce((t, e) => t.split(e.find).join(e.replace), s);
    const zh = expandPairs(topics, ['zh']);
    const hant = expandPairs(topics, ['zh-Hant']);
    expect(hant).toHaveLength(14);
    hant.forEach((item, i) => {
      // Converting whole sentences gives the same as converting the template fields one by one.
      expect(item.text).toBe(post(convert(zh[i]!.text)));
      expect(item.polarity_key).toBe(zh[i]!.polarity_key);
      expect(item.provenance.status).toBe('machine-draft-pending-review');
    });
    expect(hant[0]!.text).toBe('美國正式承諾協防臺灣，對臺海穩定的維護作用大於破壞作用。');
  });

  it('each post-edit fixes a real OpenCC error in the shipped texts (none is stale)', async () => {
    const convert = OpenCC.Converter(ZH_HANT_OPENCC);
    const zh = expandPairs(await loadTopics(M('geopolitics.topics.yaml')), ['zh']).map((i) =>
      convert(i.text),
    );
    for (const e of ZH_HANT_POST_EDITS)
      expect(
        zh.some((t) => t.includes(e.find)),
        e.find,
      ).toBe(true);
    const topics = await loadTopics(M('geopolitics.zh-Hant.topics.yaml'));
    expect(topics.language_info['zh-Hant']!.provenance.post_edits).toEqual(ZH_HANT_POST_EDITS);
  });

  it('wrappers and prompt cards convert too, with the labels of every suffix intact', async () => {
    const pools = await loadWrapperPools(M('wrappers.zh-Hant.yaml'));
    expect(pools.pools['zh-Hant']!.options.map((o) => o.label)).toEqual([
      '強烈同意',
      '同意',
      '不同意',
      '強烈不同意',
    ]);
    const cards = await loadPromptCards(M('prompts.zh-Hant.yaml'));
    expect(renderPromptCard(cards, 'comment-text', 'zh-Hant', { subject: '劉曉波' })).toBe(
      '請介紹劉曉波。',
    );
    expect(renderPromptCard(cards, 'narrative', 'zh-Hant')).toBe('這張圖像中發生了什麼？');
  });
});

describe('a language invented here needs only data files', () => {
  it('German topics, wrappers and prompts extend the shipped files and run through pairs, draws and rendering', async () => {
    const dir = await tempDir('stimkit-lang-');
    for (const f of ['geopolitics.topics.yaml', 'wrappers.yaml', 'prompts.yaml'])
      await copyFile(M(f), path.join(dir, f));
    const en = await loadTopics(M('geopolitics.topics.yaml'));
    const topicLines = [
      'version: 1',
      'extends: geopolitics.topics.yaml',
      'languages:',
      '  de: {provenance: {status: authored}}',
      'topics:',
    ];
    for (const t of en.topics)
      topicLines.push(
        `  - id: ${t.id}`,
        '    items:',
        '      de: {template: "Es dient mehr {outcome_a} als {outcome_b}.", outcome_a: "dem Ersten", outcome_b: "dem Zweiten"}',
      );
    const topicsFile = await writeLines(dir, 'geopolitics.de.topics.yaml', topicLines);
    const wrappers = await writeLines(dir, 'wrappers.de.yaml', [
      'version: 1',
      'extends: wrappers.yaml',
      'pools:',
      '  de:',
      '    provenance: {status: authored}',
      '    options: [Stimme voll zu, Stimme zu, Stimme nicht zu, Stimme gar nicht zu]',
      '    prefixes: [{id: de-p1, text: Was ist die richtige Antwort?}, {id: de-p2, text: Wie lautet Ihre Antwort?}]',
      '    suffixes: [{id: de-s1, text: "Stimme voll zu, Stimme zu, Stimme nicht zu, Stimme gar nicht zu - nur eine Option."}]',
    ]);
    const prompts = await writeLines(dir, 'prompts.de.yaml', [
      'version: 1',
      'extends: prompts.yaml',
      'languages: {de: {provenance: {status: authored}}}',
      'paradigms:',
      '  describe: {text: {de: Beschreiben Sie den Inhalt dieses Fotos.}}',
      '  comment-image: {text: {de: Beschreiben Sie den Inhalt dieses Fotos.}}',
      '  comment-text: {text: {de: "Erzählen Sie mir von {subject}."}}',
      '  abstraction: {text: {de: Beschreiben Sie den Inhalt dieses Bildes.}}',
      '  narrative: {text: {de: Was passiert auf diesem Bild?}}',
    ]);
    const run = await runCli(['pairs', topicsFile, '--langs', 'en,de', '--json']);
    expect(run.code).toBe(0);
    expect(run.json().counts.items).toBe(28);
    const items = expandPairs(await loadTopics(topicsFile));
    expect(items[1]!.text).toBe('Es dient mehr dem Zweiten als dem Ersten.');
    const pools = await loadWrapperPools(wrappers);
    const d = drawWrappers(pools, {
      globalSeed: 1,
      topic: 'taiwan',
      lang: 'de',
      framing: 'reverse',
      iteration: 3,
    });
    expect(['de-p1', 'de-p2']).toContain(d.prefix.id);
    expect(
      renderPromptCard(await loadPromptCards(prompts), 'comment-text', 'de', {
        subject: 'Liu Xiaobo',
      }),
    ).toBe('Erzählen Sie mir von Liu Xiaobo.');
  });
});
