/**
 * Traditional Chinese (zh-Hant) drafts of the Simplified Chinese (zh) stimuli, made with OpenCC
 * (opencc-js) and flagged `machine-draft-pending-review`. Simplified versus Traditional script is
 * a known contrast in censorship studies, so the conversion is deliberately script-only
 * (`cn` → `tw`, characters without Taiwan phrase substitution): the drafts differ from the zh
 * texts in script, not in wording. The output is three data files that extend the zh ones; adding
 * the language needs no code, and this generator is only a convenience for writing them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as OpenCC from 'opencc-js/cn2t';
import { stringify } from 'yaml';
import { StimkitError } from '../core/errors.js';
import { loadStimulusFile } from './datafile.js';
import type { PostEdit, TextProvenance } from './provenance.js';
import { PromptsFileInput } from './prompts-schema.js';
import { TopicsFileInput, type Outcome, type TopicItemInput } from './topics-schema.js';
import { WrappersFileInput } from './wrappers-schema.js';

/** The OpenCC locales used: mainland Simplified to Taiwan-standard Traditional characters. */
export const ZH_HANT_OPENCC = { from: 'cn', to: 'tw' } as const;

/**
 * Replacements applied after conversion, each for a known OpenCC error in these texts. They are
 * recorded in the drafts' provenance, which stays `machine-draft-pending-review`.
 */
export const ZH_HANT_POST_EDITS: PostEdit[] = [
  {
    find: '協防颱灣',
    replace: '協防臺灣',
    reason:
      'OpenCC segments 协防台湾 as 协/防台/湾 and converts 防台 ("typhoon prevention") to 防颱; the name is 臺灣 (as in 臺海)',
  },
];

/** The three drafts: source file (zh) and generated file (zh-Hant), both relative to manifests/. */
export const ZH_HANT_DRAFTS = [
  { kind: 'topics', from: 'geopolitics.topics.yaml', to: 'geopolitics.zh-Hant.topics.yaml' },
  { kind: 'wrappers', from: 'wrappers.yaml', to: 'wrappers.zh-Hant.yaml' },
  { kind: 'prompts', from: 'prompts.yaml', to: 'prompts.zh-Hant.yaml' },
] as const;

/** The installed opencc-js version (recorded in the drafts' provenance). */
function openccVersion(): string {
  const require = createRequire(import.meta.url);
  let dir = path.dirname(require.resolve('opencc-js'));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'opencc-js' && pkg.version) return pkg.version;
    } catch {
      // not here; go up
    }
    const up = path.dirname(dir);
    if (up === dir)
      throw new StimkitError('E_STIMULI_OPENCC', 'cannot find the opencc-js package.json', {
        fix: 'reinstall stimkit (`npm ci` in a clone) so that opencc-js is installed',
      });
    dir = up;
  }
}

/**
 * opencc-js's `Converter`, typed: its published types/full.d.ts imports './core' without the
 * extension that Node's ESM resolution needs, so TypeScript sees its types as unresolved.
 */
const makeConverter = OpenCC.Converter as unknown as (options: {
  from: string;
  to: string;
}) => (text: string) => string;

/** A converter: OpenCC cn → tw, then the post-edits; remembers which post-edits applied. */
function zhHantConverter(): { convert: (s: string) => string; applied: Set<PostEdit> } {
  const opencc = makeConverter(ZH_HANT_OPENCC);
  const applied = new Set<PostEdit>();
  const convert = (s: string) => {
    let out = opencc(s);
    for (const e of ZH_HANT_POST_EDITS) {
      if (out.includes(e.find)) {
        applied.add(e);
        out = out.split(e.find).join(e.replace);
      }
    }
    return out;
  };
  return { convert, applied };
}

function provenance(applied: Set<PostEdit>, notes: string): TextProvenance {
  const edits = ZH_HANT_POST_EDITS.filter((e) => applied.has(e));
  return {
    status: 'machine-draft-pending-review',
    derived_from: { lang: 'zh' },
    method: `opencc-js ${openccVersion()}, Converter({from: '${ZH_HANT_OPENCC.from}', to: '${ZH_HANT_OPENCC.to}'}) on each zh text${edits.length > 0 ? ', then the post_edits below' : ''}`,
    ...(edits.length > 0 ? { post_edits: edits } : {}),
    notes,
  };
}

const LANG_NAME = 'Chinese (Traditional), machine draft';
const HEADER = (from: string) =>
  `# GENERATED from ${from} by scripts/stimuli.ts (opencc-js, zh → zh-Hant); do not edit by hand.\n` +
  `# A machine draft pending human review: fix wording in ${from} or in the post-edits of\n` +
  '# src/stimuli/opencc.ts, then run `npm run stimuli`.\n';

function convertOutcome(o: Outcome, c: (s: string) => string): Outcome {
  return typeof o === 'string'
    ? c(o)
    : Object.fromEntries(Object.entries(o).map(([k, v]) => [k, c(v)]));
}

async function topicsDraft(fromFile: string, baseName: string): Promise<unknown> {
  const { data } = await loadStimulusFile(fromFile, TopicsFileInput, 'E_TOPICS_SCHEMA');
  const { convert, applied } = zhHantConverter();
  const topics = data.topics.map((t) => {
    const zh = t.items.zh;
    if (!zh)
      throw StimkitError.fromProblem({
        code: 'E_STIMULI_DRAFT_SOURCE',
        file: fromFile,
        field: `topics.${t.id}.items.zh`,
        message: 'the topic has no zh item to convert to zh-Hant',
        fix: 'add the zh item to the topic, or remove the topic',
      });
    const item: TopicItemInput = {};
    for (const f of ['subject', 'template', 'affirmative', 'reverse'] as const)
      if (zh[f] !== undefined) item[f] = convert(zh[f]);
    for (const f of ['outcome_a', 'outcome_b'] as const)
      if (zh[f] !== undefined) item[f] = convertOutcome(zh[f], convert);
    return { id: t.id, items: { 'zh-Hant': item } };
  });
  return {
    format: data.format,
    version: data.version,
    extends: baseName,
    title: `${data.title ?? data.domain}, Traditional Chinese machine draft`,
    languages: {
      'zh-Hant': {
        name: LANG_NAME,
        provenance: provenance(applied, 'each field converted from the zh item of the same topic'),
      },
    },
    topics,
  };
}

async function wrappersDraft(fromFile: string, baseName: string): Promise<unknown> {
  const { data } = await loadStimulusFile(fromFile, WrappersFileInput, 'E_WRAPPERS_SCHEMA');
  const zh = data.pools.zh;
  if (!zh)
    throw StimkitError.fromProblem({
      code: 'E_STIMULI_DRAFT_SOURCE',
      file: fromFile,
      field: 'pools.zh',
      message: 'the file has no zh pool to convert to zh-Hant',
      fix: 'add the zh pool, or drop this file from the zh-Hant drafts',
    });
  const { convert, applied } = zhHantConverter();
  const wrap = (w: { id: string; text: string }) => ({
    id: w.id.replace(/^zh-/, 'zh-hant-'),
    text: convert(w.text),
  });
  const pool = {
    name: LANG_NAME,
    options: zh.options.map(convert),
    prefixes: zh.prefixes.map(wrap),
    suffixes: zh.suffixes.map(wrap),
  };
  return {
    format: data.format,
    version: data.version,
    extends: baseName,
    pools: {
      'zh-Hant': {
        ...pool,
        provenance: provenance(
          applied,
          'each text converted from the zh text with the same id (zh-hant-p01 from zh-p01, …); the zh texts are published or authored as marked there',
        ),
      },
    },
  };
}

async function promptsDraft(fromFile: string, baseName: string): Promise<unknown> {
  const { data } = await loadStimulusFile(fromFile, PromptsFileInput, 'E_PROMPTS_SCHEMA');
  const { convert, applied } = zhHantConverter();
  const paradigms = Object.fromEntries(
    Object.entries(data.paradigms).map(([name, card]) => {
      if (card.text.zh === undefined)
        throw StimkitError.fromProblem({
          code: 'E_STIMULI_DRAFT_SOURCE',
          file: fromFile,
          field: `paradigms.${name}.text.zh`,
          message: 'the prompt card has no zh text to convert to zh-Hant',
          fix: 'add the zh text to the card, or remove the card',
        });
      return [name, { text: { 'zh-Hant': convert(card.text.zh) } }];
    }),
  );
  return {
    format: data.format,
    version: data.version,
    extends: baseName,
    languages: {
      'zh-Hant': {
        name: LANG_NAME,
        provenance: provenance(
          applied,
          'each prompt converted from the zh prompt of the same paradigm',
        ),
      },
    },
    paradigms,
  };
}

/** Generate the text of every zh-Hant draft from the zh files in `manifestsDir`. */
export async function generateZhHantDrafts(
  manifestsDir: string,
): Promise<Array<{ file: string; text: string }>> {
  const out: Array<{ file: string; text: string }> = [];
  for (const d of ZH_HANT_DRAFTS) {
    const from = path.join(manifestsDir, d.from);
    const value =
      d.kind === 'topics'
        ? await topicsDraft(from, d.from)
        : d.kind === 'wrappers'
          ? await wrappersDraft(from, d.from)
          : await promptsDraft(from, d.from);
    out.push({
      file: path.join(manifestsDir, d.to),
      text: HEADER(d.from) + stringify(value, { lineWidth: 0 }),
    });
  }
  return out;
}
