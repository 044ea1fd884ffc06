/**
 * `stimkit translate <file> --opencc tw|hk|cn --out FILE`: a user's topics, wrappers or prompts
 * file converted between Chinese scripts with OpenCC, written as a file that `extends` it and
 * adds only the new language (Taiwan or Hong Kong Traditional from Simplified, or Simplified from
 * Traditional), every text marked `drafted-pending-adjudication` through the language's
 * provenance, as the shipped drafts are marked. The draft is checked by the file's own loader
 * before it replaces anything at `--out` (atomic write).
 */
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { parseDataText } from '../core/datafile.js';
import { StimkitError } from '../core/errors.js';
import { ensureFolder, readTextFile, relPosix, sha256, writeFileAtomic } from '../core/fsio.js';
import { isShippedRef, resolveRef } from '../core/shipped.js';
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
import { ZH_HANT_HK_POST_EDITS, ZH_HANT_OPENCC, ZH_HANT_POST_EDITS } from './opencc.js';
import { loadPromptCards } from './prompts.js';
import { PromptsFileInput } from './prompts-schema.js';
import { loadTopics } from './topics.js';
import { TopicsFileInput } from './topics-schema.js';
import { loadWrapperPools } from './wrappers.js';
import { WrappersFileInput } from './wrappers-schema.js';

/** The `--opencc` targets: the language added, the languages converted from, OpenCC's locales. */
export const OPENCC_TARGETS = {
  tw: {
    lang: 'zh-Hant',
    name: 'Chinese (Traditional, Taiwan), OpenCC draft',
    sources: ['zh', 'zh-Hans', 'zh-CN'],
  },
  hk: {
    lang: 'zh-Hant-HK',
    name: 'Chinese (Traditional, Hong Kong), OpenCC draft',
    sources: ['zh', 'zh-Hans', 'zh-CN'],
  },
  cn: {
    lang: 'zh',
    name: 'Chinese (Simplified), OpenCC draft',
    sources: ['zh-Hant', 'zh-TW', 'zh-Hant-TW', 'zh-HK', 'zh-Hant-HK'],
  },
} as const;
export type OpenccTarget = keyof typeof OPENCC_TARGETS;

/** OpenCC's locale for a source language tag (`cn`, `tw` or `hk`). */
const localeOf = (tag: string): string =>
  /-HK$/i.test(tag) ? 'hk' : /^zh(-Hans|-CN)?$/i.test(tag) ? 'cn' : 'tw';

/** What `translate` is asked. */
export interface TranslateOptions {
  target: OpenccTarget;
  out: string;
  /** The language converted (default: the file's one language `target` converts from). */
  from?: string;
  /** The tag of the added language (default: OPENCC_TARGETS[target].lang). */
  lang?: string;
}

/** What `translate` did. */
export interface TranslateRun {
  kind: 'topics' | 'wrappers' | 'prompts';
  file: string;
  /** The draft's `extends`, as written in it (`stimkit:<name>`, or a path relative to the draft). */
  extends: string;
  out: string;
  from: string;
  to: string;
  opencc: { from: string; to: string };
  texts: number;
  /** Topics or cards without a text in `from` (the draft has none for them). */
  skipped: string[];
  sha256: string;
}

const KINDS = {
  'stimkit.topics': 'topics',
  'stimkit.wrappers': 'wrappers',
  'stimkit.prompts': 'prompts',
} as const;

/** The kind of a stimulus file, by its `format` field (or its name). */
async function kindOf(file: string): Promise<TranslateRun['kind']> {
  const { value } = parseDataText(
    file,
    await readTextFile(file, 'E_TRANSLATE_READ'),
    'E_TRANSLATE_READ',
  );
  const format = (value as { format?: unknown } | null)?.format;
  const byName = /\.topics\.(ya?ml|json)$/.test(file)
    ? 'topics'
    : /wrappers.*\.(ya?ml|json)$/.test(file)
      ? 'wrappers'
      : /prompts.*\.(ya?ml|json)$/.test(file)
        ? 'prompts'
        : undefined;
  const kind = typeof format === 'string' ? KINDS[format as keyof typeof KINDS] : byName;
  if (kind) return kind;
  throw StimkitError.fromProblem({
    code: 'E_TRANSLATE_FORMAT',
    file,
    field: 'format',
    message: 'translate converts topics, wrappers and prompts files',
    expected: Object.keys(KINDS).join(', '),
    got: typeof format === 'string' ? format : 'no format field',
    fix: 'give a topics, wrappers or prompts file (its format field says which)',
  });
}

/** Every language of the file itself (not of the files it extends), and of its whole chain. */
async function languagesOf(kind: TranslateRun['kind'], file: string) {
  if (kind === 'topics') {
    const { data } = await loadStimulusFile(file, TopicsFileInput, 'E_TOPICS_SCHEMA');
    const own = [
      ...Object.keys(data.languages),
      ...data.topics.flatMap((t) => Object.keys(t.items)),
    ];
    return { own: [...new Set(own)], chain: (await loadTopics(file)).languages };
  }
  if (kind === 'wrappers') {
    const { data } = await loadStimulusFile(file, WrappersFileInput, 'E_WRAPPERS_SCHEMA');
    return { own: Object.keys(data.pools), chain: (await loadWrapperPools(file)).languages };
  }
  const { data } = await loadStimulusFile(file, PromptsFileInput, 'E_PROMPTS_SCHEMA');
  const own = Object.values(data.paradigms).flatMap((c) => Object.keys(c.text));
  return { own: [...new Set(own)], chain: (await loadPromptCards(file)).languages };
}

/** The language converted: `--from`, or the one language of the file the target converts from. */
function sourceLanguage(file: string, own: string[], o: TranslateOptions): string {
  const want = OPENCC_TARGETS[o.target].sources as readonly string[];
  const found = o.from
    ? [o.from].filter((l) => own.includes(l))
    : own.filter((l) => want.includes(l));
  if (found.length === 1) return found[0]!;
  throw StimkitError.fromProblem({
    code: 'E_TRANSLATE_SOURCE',
    file,
    field: 'languages',
    message:
      found.length === 0
        ? `the file has no ${o.from ?? want.join(' or ')} text to convert with --opencc ${o.target}`
        : `the file has several languages --opencc ${o.target} could convert (${found.join(', ')})`,
    expected: o.from ?? `one of ${want.join(', ')}`,
    got: own.join(', ') || 'no language',
    fix:
      found.length === 0
        ? 'give the file that holds those texts, or pick another --opencc'
        : 'choose one with --from',
  });
}

/** The draft's value, the texts converted and what had no source text. */
async function draft(kind: TranslateRun['kind'], file: string, spec: DraftSpec) {
  if (kind === 'topics') {
    const { data } = await loadStimulusFile(file, TopicsFileInput, 'E_TOPICS_SCHEMA');
    return topicsDraft(data, spec);
  }
  if (kind === 'wrappers') {
    const { data } = await loadStimulusFile(file, WrappersFileInput, 'E_WRAPPERS_SCHEMA');
    return { value: wrappersDraft(data, spec), skipped: [] };
  }
  const { data } = await loadStimulusFile(file, PromptsFileInput, 'E_PROMPTS_SCHEMA');
  return promptsDraft(data, spec);
}

const LOADERS = { topics: loadTopics, wrappers: loadWrapperPools, prompts: loadPromptCards };

/**
 * Write `text` to `out` only once the file's loader accepts it: written beside `out` first (so
 * that its relative `extends` resolves), loaded, then renamed over `out`. A refused draft leaves
 * `out` as it was; its problems name `out`.
 */
async function writeChecked(kind: TranslateRun['kind'], out: string, text: string): Promise<void> {
  await ensureFolder(path.dirname(out));
  const tmp = path.join(
    path.dirname(out),
    `.${path.basename(out)}.${process.pid}.check${path.extname(out)}`,
  );
  try {
    await writeFileAtomic(tmp, text);
    await LOADERS[kind](tmp);
    await rename(tmp, out);
  } catch (err) {
    await rm(tmp, { force: true });
    if (!(err instanceof StimkitError)) throw err;
    const name = (s: string | undefined) => s?.split(tmp).join(out);
    throw new StimkitError(
      'E_TRANSLATE_INVALID',
      `the draft would not load: ${name(err.message)}`,
      {
        fix: 'a draft that adds a language must cover what the file extends; translate the base file too, or convert the file the language comes from',
        problems: err.problems.map((p) => ({
          ...p,
          file: name(p.file),
          message: name(p.message)!,
        })),
      },
    );
  }
}

/**
 * Convert the topics, wrappers or prompts file `input` (a path, or `stimkit:<name>`) and write the
 * draft to `options.out`: a file that extends `input` and adds the converted language.
 *
 * @example
 * await translateFile('my.topics.yaml', { target: 'hk', out: 'my.zh-Hant-HK.topics.yaml' });
 */
export async function translateFile(
  input: string,
  options: TranslateOptions,
): Promise<TranslateRun> {
  const file = resolveRef(input, process.cwd(), { code: 'E_TRANSLATE_READ', file: input });
  const out = path.resolve(options.out);
  if (out === file)
    throw StimkitError.usage(
      'E_TRANSLATE_OUT',
      '--out names the file being translated',
      'write the draft to a new file, e.g. --out my.zh-Hant.topics.yaml',
    );
  const kind = await kindOf(file);
  const { own, chain } = await languagesOf(kind, file);
  const from = sourceLanguage(file, own, options);
  const to = options.lang ?? OPENCC_TARGETS[options.target].lang;
  if (chain.includes(to))
    throw StimkitError.fromProblem({
      code: 'E_TRANSLATE_TARGET',
      file,
      field: 'languages',
      message: `the file (with what it extends) already has ${to}`,
      expected: `a language not in ${chain.join(', ')}`,
      got: to,
      fix: `name another tag for the draft with --lang (e.g. ${to}-x-opencc), or translate a file without ${to}`,
    });
  const opencc = { from: localeOf(from), to: options.target };
  // The known OpenCC errors of mainland text converted to Taiwan's or Hong Kong's standard.
  const edits =
    opencc.from !== ZH_HANT_OPENCC.from
      ? []
      : opencc.to === ZH_HANT_OPENCC.to
        ? ZH_HANT_POST_EDITS
        : opencc.to === 'hk'
          ? ZH_HANT_HK_POST_EDITS
          : [];
  const converter = withPostEdits(makeConverter(opencc), edits);
  const edited = () => [...converter.applied];
  let texts = 0;
  const method = `opencc-js ${openccVersion()}, Converter({from: '${opencc.from}', to: '${opencc.to}'}) on each ${from} text, by stimkit translate`;
  const spec: DraftSpec = {
    from,
    to,
    convert: (s) => (texts++, converter.convert(s)),
    name: OPENCC_TARGETS[options.target].name,
    provenance: (notes) => ({
      status: 'drafted-pending-adjudication',
      derived_from: { lang: from },
      method: edited().length > 0 ? `${method}, then the post_edits below` : method,
      ...(edited().length > 0 ? { post_edits: edited() } : {}),
      notes,
    }),
    base: isShippedRef(input) ? input : relPosix(path.dirname(out), file),
  };
  const { value, skipped } = await draft(kind, file, spec);
  const header =
    `# Drafted by stimkit translate from ${path.basename(file)} (${from} → ${to}, opencc-js ${opencc.from} → ${opencc.to}).\n` +
    '# Every text is drafted-pending-adjudication: have it reviewed before citing a study that uses it.\n';
  const text = header + stringify(value, { lineWidth: 0 });
  await writeChecked(kind, out, text);
  return {
    kind,
    file,
    extends: spec.base,
    out,
    from,
    to,
    opencc,
    texts,
    skipped,
    sha256: sha256(text),
  };
}
