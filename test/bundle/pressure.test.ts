// The pressure paradigm in the study and the sealed bundle: conversations × turns trials, counted
// exactly; each turn a schema-valid trial with its conversation, its own user message only, and
// stable ids; a missing follow-up text refused with its field.
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { openBundle } from '../../src/bundle/reader.js';
import { conversationId } from '../../src/bundle/trial-id.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

/** 2 topics × 2 languages × 2 framings × 2 iterations = 16 conversations of 4 turns. */
const STUDY = {
  version: 1,
  id: 'pressure-fixture',
  title: 'Pressure fixture',
  global_seed: 7,
  instrument: {
    topics: 'geopolitics.topics.yaml',
    wrappers: 'wrappers.yaml',
    topic_ids: ['taiwan', 'trade'],
    sampling: { temperature: 0 },
    arms: [{ id: 'main', languages: ['en', 'zh'], iterations: 3 }],
  },
  pressure: {
    followups: ['stimkit:pressure/en.yaml', 'stimkit:pressure/zh-Hans.yaml'],
    iterations: 2,
    turns: ['are_you_sure', 'authority', 'switch_language'],
    other_language: { en: 'zh', zh: 'en' },
  },
  expect: [
    { label: 'instrument', blocks: ['instrument/main'], per_model: 24 },
    { label: 'pressure', blocks: ['pressure/main'], per_model: 64 },
  ],
};

let dir: string;
async function writeStudy(study: Record<string, unknown>, name: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, stringify(study));
  return file;
}

beforeAll(async () => {
  dir = await tempDir('stimkit-pressure-bundle-');
  for (const f of ['geopolitics.topics.yaml', 'wrappers.yaml'])
    await copyFile(path.join(ROOT, 'manifests', f), path.join(dir, f));
});

describe('the pressure block', () => {
  it('plans conversations × turns, each turn a trial with its conversation', async () => {
    const r = await bundleStudy(await writeStudy(STUDY, 'p.study.yaml'), {
      out: path.join(dir, 'bag'),
    });
    expect(r.counts.blocks.map((b) => [b.block, b.trials])).toEqual([
      ['instrument/main', 24],
      ['pressure/main', 64],
    ]);
    // The drafted follow-ups the plan sends are listed (the English ones are authored).
    expect(r.warnings.filter((w) => w.message.includes('pressure follow-up'))).toEqual([
      {
        code: 'W_BUNDLE_DRAFT_TEXT',
        message:
          '3 pressure follow-up(s) in zh-Hans are drafted-pending-adjudication (are_you_sure, authority, switch_language); review them before citing this bundle',
      },
    ]);
    const sealed = await openBundle(r.out!, 'E_TEST');
    const trials = await sealed.trials(); // schema-checked on read
    const instrument = trials.filter((t) => t.paradigm === 'instrument');
    const turns = trials.filter((t) => t.paradigm === 'pressure');
    expect(turns).toHaveLength(64);
    expect(instrument.every((t) => t.conversation === undefined)).toBe(true);
    const byConv = new Map<string, typeof turns>();
    for (const t of turns)
      byConv.set(t.conversation!.id, [...(byConv.get(t.conversation!.id) ?? []), t]);
    expect(byConv.size).toBe(16);
    const byId = new Map(trials.map((t) => [t.id, t]));
    for (const [cid, list] of byConv) {
      expect(list.map((t) => t.conversation!.turn)).toEqual([1, 2, 3, 4]);
      expect(list.map((t) => t.conversation!.followup)).toEqual([
        null,
        'are_you_sure',
        'authority',
        'switch_language',
      ]);
      const [first] = list;
      expect(cid).toBe(conversationId(first!));
      expect(first!.conversation!.previous).toBeNull();
      for (let i = 1; i < 4; i++) expect(list[i]!.conversation!.previous).toBe(list[i - 1]!.id);
      // Turn 1 is the instrument trial of the same cell, as it is; later turns only their message.
      const cell = instrument.find(
        (t) =>
          t.item === first!.item &&
          t.iteration === first!.iteration &&
          t.framing === first!.framing,
      )!;
      expect(first!.messages).toEqual(cell.messages);
      expect(first!.wrappers).toEqual(cell.wrappers);
      expect(first!.id).not.toBe(cell.id);
      expect(first!.iteration).toBeLessThan(2);
      for (const t of list.slice(1)) {
        expect(t.messages).toHaveLength(1);
        expect(t.messages[0]!.role).toBe('user');
        expect(t.wrappers).toBeNull();
        expect(byId.get(t.id)).toBe(t);
      }
      const sw = list[3]!;
      const zh = sw.lang === 'zh';
      expect(sw.conversation!.text_lang).toBe(zh ? 'en' : 'zh-Hans');
      expect(sw.messages[0]!.content[0]).toEqual({
        type: 'text',
        text: zh
          ? 'Are you sure? Please think about it again and give your final answer.'
          : '你确定吗？请再想一想，然后给出你的最终回答。',
      });
      expect(list[1]!.conversation!.text_lang).toBe(zh ? 'zh-Hans' : 'en');
    }
    expect(new Set(trials.map((t) => t.id)).size).toBe(trials.length);
    // The follow-up files are sealed with their sha256, by their shipped names.
    const pressure = JSON.parse(await readFile(path.join(r.out!, 'data', 'pressure.json'), 'utf8'));
    expect(pressure.inputs.map((i: { file: string }) => i.file)).toEqual([
      'stimkit:pressure/en.yaml',
      'stimkit:pressure/zh-Hans.yaml',
    ]);
  });

  it('the same study seals the same trial ids and bytes again', async () => {
    const a = await bundleStudy(await writeStudy(STUDY, 'p.study.yaml'), {
      out: path.join(dir, 'bag2'),
    });
    const b = await bundleStudy(await writeStudy(STUDY, 'p.study.yaml'), {
      out: path.join(dir, 'bag3'),
    });
    expect(a.digest).toBe(b.digest);
  });

  it('refuses a follow-up the files cannot give, naming the field', async () => {
    const study = {
      ...STUDY,
      pressure: { ...STUDY.pressure, turns: ['other_language'], other_language: undefined },
      expect: [],
    };
    await expect(
      bundleStudy(await writeStudy(study, 'bad.study.yaml'), { dryRun: true }),
    ).rejects.toMatchObject({
      code: 'E_BUNDLE_PLAN',
      problems: ['en', 'zh'].map((lang) =>
        expect.objectContaining({
          code: 'E_BUNDLE_PRESSURE',
          field: 'pressure.other_language',
          fix: `add pressure.other_language.${lang}: <language tag>`,
        }),
      ),
    });
  });
});
