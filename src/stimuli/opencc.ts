/**
 * Traditional Chinese (zh-Hant) drafts of the Simplified Chinese (zh) stimuli, made with OpenCC
 * (opencc-js) and flagged `machine-draft-pending-review`. Simplified versus Traditional script is
 * a known contrast in censorship studies, so the conversion is deliberately script-only
 * (`cn` → `tw`, characters without Taiwan phrase substitution): the drafts differ from the zh
 * texts in script, not in wording. The output is three data files that extend the zh ones; adding
 * the language needs no code, and this generator is only a convenience for writing them.
 */
import path from 'node:path';
import { stringify } from 'yaml';
import { StimkitError } from '../core/errors.js';
import { loadStimulusFile } from './datafile.js';
import {
  makeConverter,
  openccVersion,
  promptsDraft,
  topicsDraft,
  withPostEdits,
  wrappersDraft,
  type DraftSpec,
} from './opencc-drafts.js';
import type { PostEdit, TextProvenance } from './provenance.js';
import { PromptsFileInput } from './prompts-schema.js';
import { TopicsFileInput } from './topics-schema.js';
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

/**
 * The same OpenCC error for the Hong Kong target (cn → hk), where the name is 台灣, as OpenCC's hk
 * converts 台湾 standing alone (and 台海).
 */
export const ZH_HANT_HK_POST_EDITS: PostEdit[] = [
  {
    find: '協防颱灣',
    replace: '協防台灣',
    reason:
      'OpenCC segments 协防台湾 as 协/防台/湾 and converts 防台 ("typhoon prevention") to 防颱; the name is 台灣, as OpenCC hk gives 台湾 standing alone',
  },
];

/** The three drafts: source file (zh) and generated file (zh-Hant), both relative to manifests/. */
export const ZH_HANT_DRAFTS = [
  { kind: 'topics', from: 'geopolitics.topics.yaml', to: 'geopolitics.zh-Hant.topics.yaml' },
  { kind: 'wrappers', from: 'wrappers.yaml', to: 'wrappers.zh-Hant.yaml' },
  { kind: 'prompts', from: 'prompts.yaml', to: 'prompts.zh-Hant.yaml' },
] as const;

/** A converter: OpenCC cn → tw, then the post-edits; remembers which post-edits applied. */
function zhHantConverter(): { convert: (s: string) => string; applied: Set<PostEdit> } {
  return withPostEdits(makeConverter(ZH_HANT_OPENCC), ZH_HANT_POST_EDITS);
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

/** The draft spec of the shipped zh-Hant drafts: zh → zh-Hant, extending `baseName`. */
function zhHantSpec(baseName: string): { spec: DraftSpec; convert: (s: string) => string } {
  const { convert, applied } = zhHantConverter();
  const spec: DraftSpec = {
    from: 'zh',
    to: 'zh-Hant',
    convert,
    name: LANG_NAME,
    provenance: (notes) => provenance(applied, notes),
    base: baseName,
  };
  return { spec, convert };
}

/** Refuse a source file with texts lacking a zh text (every shipped text has one). */
function noneSkipped(file: string, skipped: string[], field: (id: string) => string): void {
  if (skipped.length > 0)
    throw StimkitError.fromProblem({
      code: 'E_STIMULI_DRAFT_SOURCE',
      file,
      field: field(skipped[0]!),
      message: `no zh text to convert to zh-Hant (${skipped.join(', ')})`,
      fix: 'add the zh text, or remove what lacks it',
    });
}

/** The value of one draft, from the zh file `from` (relative name `baseName`). */
async function draftValue(kind: string, from: string, baseName: string): Promise<unknown> {
  const { spec } = zhHantSpec(baseName);
  if (kind === 'topics') {
    const { data } = await loadStimulusFile(from, TopicsFileInput, 'E_TOPICS_SCHEMA');
    const title = `${data.title ?? data.domain}, Traditional Chinese machine draft`;
    const { value, skipped } = topicsDraft(data, spec, title);
    noneSkipped(from, skipped, (id) => `topics.${id}.items.zh`);
    return value;
  }
  if (kind === 'wrappers') {
    const { data } = await loadStimulusFile(from, WrappersFileInput, 'E_WRAPPERS_SCHEMA');
    const value = wrappersDraft(data, spec);
    noneSkipped(from, value ? [] : ['zh'], () => 'pools.zh');
    return value;
  }
  const { data } = await loadStimulusFile(from, PromptsFileInput, 'E_PROMPTS_SCHEMA');
  const { value, skipped } = promptsDraft(data, spec);
  noneSkipped(from, skipped, (name) => `paradigms.${name}.text.zh`);
  return value;
}

/** Generate the text of every zh-Hant draft from the zh files in `manifestsDir`. */
export async function generateZhHantDrafts(
  manifestsDir: string,
): Promise<Array<{ file: string; text: string }>> {
  const out: Array<{ file: string; text: string }> = [];
  for (const d of ZH_HANT_DRAFTS) {
    const from = path.join(manifestsDir, d.from);
    const value = await draftValue(d.kind, from, d.from);
    out.push({
      file: path.join(manifestsDir, d.to),
      text: HEADER(d.from) + stringify(value, { lineWidth: 0 }),
    });
  }
  return out;
}
