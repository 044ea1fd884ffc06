// `stimkit translate`: a user's topics, wrappers or prompts file converted between Chinese scripts
// (OpenCC tw, hk, cn), written as a file that extends it, every text drafted-pending-adjudication.
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { translateCommand } from '../../src/commands/translate.js';
import { exists } from '../../src/core/fsio.js';
import { loadPromptCards } from '../../src/stimuli/prompts.js';
import { loadTopics } from '../../src/stimuli/topics.js';
import { translateFile } from '../../src/stimuli/translate.js';
import { loadWrapperPools } from '../../src/stimuli/wrappers.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { rejection, writeLines } from './helpers.js';

const M = (f: string) => path.join(ROOT, 'manifests', f);

describe('translate --opencc', () => {
  it('tw: a user topics file gets a zh-Hant draft extending it, as the shipped draft reads', async () => {
    const dir = await tempDir('stimkit-translate-');
    const mine = path.join(dir, 'mine.topics.yaml');
    await copyFile(M('geopolitics.topics.yaml'), mine);
    const out = path.join(dir, 'drafts', 'mine.zh-Hant.topics.yaml');
    const r = await translateFile(mine, { target: 'tw', out });
    expect(r).toMatchObject({ kind: 'topics', from: 'zh', to: 'zh-Hant', texts: 28, skipped: [] });
    expect(await readFile(out, 'utf8')).toContain('extends: ../mine.topics.yaml\n');
    const t = await loadTopics(out);
    const shipped = await loadTopics(M('geopolitics.zh-Hant.topics.yaml'));
    for (const [i, topic] of t.topics.entries())
      expect(topic.items['zh-Hant']!.affirmative).toBe(
        shipped.topics[i]!.items['zh-Hant']!.affirmative,
      );
    const prov = t.language_info['zh-Hant']!.provenance;
    expect(prov).toMatchObject({
      status: 'drafted-pending-adjudication',
      derived_from: { lang: 'zh' },
      post_edits: [{ find: '協防颱灣', replace: '協防臺灣' }],
    });
    expect(prov.method).toMatch(/^opencc-js [\d.]+, Converter\(\{from: 'cn', to: 'tw'\}\)/);
  });

  it('hk: Taiwan is 台灣, never 颱灣 (the typhoon OpenCC makes of 协防台湾)', async () => {
    const dir = await tempDir('stimkit-translate-');
    const out = path.join(dir, 'mine.hk.topics.yaml');
    await translateFile(M('geopolitics.topics.yaml'), { target: 'hk', out });
    const t = await loadTopics(out);
    const texts = t.topics.map((x) => x.items['zh-Hant-HK']!.affirmative).join('\n');
    expect(texts).not.toContain('颱灣');
    expect(texts).toContain('協防台灣');
    expect(t.language_info['zh-Hant-HK']!.provenance).toMatchObject({
      post_edits: [{ find: '協防颱灣', replace: '協防台灣' }],
    });
  });

  it('hk: a shipped wrappers file by stimkit:<name>, Hong Kong characters, ids renamed', async () => {
    const dir = await tempDir('stimkit-translate-');
    const out = path.join(dir, 'w.hk.yaml');
    const r = await translateFile('stimkit:wrappers.yaml', { target: 'hk', out });
    expect(r).toMatchObject({ kind: 'wrappers', from: 'zh', to: 'zh-Hant-HK' });
    const w = await loadWrapperPools(out);
    const pool = w.pools['zh-Hant-HK']!;
    expect(pool.prefixes[0]!.id).toBe('zh-hant-hk-p01');
    expect(pool.options.map((o) => o.label)).toEqual(['強烈同意', '同意', '不同意', '強烈不同意']);
    expect(pool.provenance.status).toBe('drafted-pending-adjudication');
    expect(await readFile(out, 'utf8')).toContain('extends: stimkit:wrappers.yaml\n');
  });

  it('cn: a Traditional-only file gets a Simplified draft', async () => {
    const dir = await tempDir('stimkit-translate-');
    const base = await writeLines(dir, 'tw.topics.yaml', [
      'format: stimkit.topics',
      'version: 1',
      'domain: demo',
      'poles: {plus: A, minus: B}',
      'languages:',
      '  zh-Hant: {provenance: {status: authored}}',
      'topics:',
      '  - id: one',
      '    affirmative_pole: plus',
      '    items:',
      '      zh-Hant: {template: "這項政策更可能{outcome_a}，而不是{outcome_b}。", outcome_a: 促進經濟, outcome_b: 損害環境}',
    ]);
    const out = path.join(dir, 'cn.topics.yaml');
    await translateFile(base, { target: 'cn', out });
    const t = await loadTopics(out);
    expect(t.topics[0]!.items.zh!.affirmative).toBe('这项政策更可能促进经济，而不是损害环境。');
  });

  it('refuses clearly: no source text, a language already there, a draft that would not load', async () => {
    const dir = await tempDir('stimkit-translate-');
    const out = path.join(dir, 'x.yaml');
    const noSource = await rejection(
      translateFile(M('geopolitics.pt.topics.yaml'), { target: 'tw', out }),
    );
    expect(noSource.error.code).toBe('E_TRANSLATE_SOURCE');
    const noRu = await rejection(
      translateFile(M('wrappers.yaml'), { target: 'tw', out, from: 'ru' }),
    );
    expect(noRu.error.code).toBe('E_TRANSLATE_SOURCE');
    const already = await rejection(
      translateFile(M('wrappers.yaml'), { target: 'cn', out, from: 'zh' }),
    );
    expect(already.error.code).toBe('E_TRANSLATE_TARGET');
    // A card added to the shipped cards: its draft would leave the base cards without zh-Hant.
    const brief = await writeLines(dir, 'brief.prompts.yaml', [
      'format: stimkit.prompts',
      'version: 1',
      `extends: ${M('prompts.yaml')}`,
      'languages:',
      '  en: {provenance: {status: authored}}',
      '  zh: {provenance: {status: drafted-pending-adjudication, derived_from: {lang: en}}}',
      'paradigms:',
      '  describe-brief:',
      '    image: true',
      '    text: {en: Describe this photograph in one sentence., zh: 请用一句话描述这张照片。}',
    ]);
    await loadPromptCards(brief);
    await writeFile(out, 'keep me\n');
    const invalid = await rejection(translateFile(brief, { target: 'tw', out }));
    expect(invalid.error.code).toBe('E_TRANSLATE_INVALID');
    expect(invalid.problems[0]).toMatchObject({ code: 'E_PROMPTS_MISSING_LANGUAGE', file: out });
    expect(await readFile(out, 'utf8')).toBe('keep me\n');
    expect((await readdir(dir)).filter((f) => f.includes('.check'))).toEqual([]);
  });

  it('the command: an unknown --opencc target is a usage error (exit 2)', async () => {
    const dir = await tempDir('stimkit-translate-');
    const out = path.join(dir, 'y.yaml');
    const run = translateCommand.run!([M('wrappers.yaml')], { opencc: 'mo', out }, {} as never);
    const { error } = await rejection(run);
    expect(error).toMatchObject({ code: 'E_TRANSLATE_TARGET', exitCode: 2 });
    expect(await exists(out)).toBe(false);
  });
});
